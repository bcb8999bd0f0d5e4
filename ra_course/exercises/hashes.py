"""The SHA-256 of the answers to the sheets' visible checks, written by ``grading/keys.py``.

Sheet -> task -> one entry per visible position or case (sheet 2: a list, one hash per player or
bid). Do not edit: the teacher's ``grading/keys.py`` computes them from the source sheets' solutions.
"""

from typing import Any

HASHES: dict[str, dict[str, list[Any]]] = {
    "ra_auction": {
        "1": [
            [
                "2ea81173a0e2c4777429695b42ad5f8fc420bd287dbe1454c47cf9580f9df4b0",
                "f5e2b40dda4e9ac8499551b51467ffaa0cf9334e9570185055ccd1078d33fbae",
                "63b7f1192fd5db32fc121cc9a4912b8be3f9c1676b63318ab9aed7ba94ac8cd1",
            ],
            [
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
            ],
            [
                "24403b83c847db8f5aca6dd12eedc1df58e8b566ee2918f4f3b08efe4b0ede36",
                "24403b83c847db8f5aca6dd12eedc1df58e8b566ee2918f4f3b08efe4b0ede36",
                "24403b83c847db8f5aca6dd12eedc1df58e8b566ee2918f4f3b08efe4b0ede36",
            ],
            [
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
                "fdc322e46827e48196a9215141e435656dc8289563930ecb34ee2a41bccfc140",
            ],
            [
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
            ],
            [
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
                "37302216a959c10f8970005b44739177580bec9a92bb81585328721447b7a1dd",
            ],
            [
                "e832710cf674f80b84aaa352143feb5bbfa63e413bdc53d123d91952f0bcf215",
                "e832710cf674f80b84aaa352143feb5bbfa63e413bdc53d123d91952f0bcf215",
                "e832710cf674f80b84aaa352143feb5bbfa63e413bdc53d123d91952f0bcf215",
            ],
        ],
        "2": [
            [
                "352e6823ba9f458fcc6ebf41192b2ddb3ae2a07b51237a0b7b3a64b3c6499024",
                "2c310fb1caaab96e591337c2e5d68a795299029c5b5a9b887a3a232e396790fa",
                "04799931ca079428c90ec6b5d281d070aa3026638d60f68741089606e4d1aaf3",
            ],
            [
                "41f779232b0a544c4420426bcb3e6e8f69c01a57278a774a1f8d379c14969251",
                "dcea53758da20476471206f0f245f7c3d0b24308ece10e49dabd1576d956962e",
                "739b12d69f4008bd1e771366a28698a4a30b3ec8de37f40acc20072396dd0579",
                "94d341193b6a56171ab4196ff6dfdb98950230f1a62b065c223168206ffb2046",
            ],
            [
                "1a4a7764a9fb2d7b43c3991aa2765afb9f41e85840a2a6d114afaa927d0c7f1c",
                "3f551cf6699451303df2dbdf333927f78b004fe8d41fe6600dc9c831a7818fe0",
                "324391d0a94893ae896beddf90f89ff720a1afdf5b8a6841e4f590eb42425aea",
                "613fc862f1662c884b260466dc638e37c2539a070519cba9d05a80159fbe6793",
            ],
            [
                "7de15fd0bb1ecc5d0e0e12fdffeb6f01ed6293f56163382ef4bbc142476e16fd",
                "25b093833babf9fd2c8c3c0be84ca16a1d7792c4e59c06f0e1958a25f2ffbf23",
                "cb09f970ea7fc1bfc171264d0091ed9a63ccc1bcf4722e180832e4d9151a09ec",
                "590d5a7ef846ed83aacff13236a4b62964d9cede1c1ab6f775e1869511d24fae",
            ],
            [
                "5edac6e53df052bd8b44de107a4bc470922394aa0448988e900fb6394c226003",
                "0dbfd4bfd33e2e9eb915db44fbeb1b0572ca5dc1767aef04270e717a5866f881",
                "a17436df0ef618849578291d73ac2863b159c1835f7fa26f767f415d42b735e7",
            ],
            [
                "9cba19f176e67c4a716e87a00709766cbb831754c58b59c972af466ad937441f",
                "65ab5b2c8151af0af00f8c2388cf364bc6dc8531621954b3b19228218d727712",
                "2365a510c9c4ec0f38c4a198b4f56941121daa31fa70064233840ef91b40dbb9",
                "a10fb5b32f01ac561d34aee1ee0d4f9ca4455243d33bcf300aa2d605ebfd78f7",
            ],
            [
                "0c5547eb377947a33866ca2d599e388b1f0c6f76cbca1876b89c392cf4e5cc61",
                "aa1bb972b3b9053d160c383b78a3b08dbeb692ef256a9c582413302665b37255",
                "115a49f980e79b72021764719e16f2c8b567acde3e29a18c4cb3e94e1e1bf52b",
                "3521dc35264b5e5f33eed434a92e9c81af41c018528d88df1910ae20a7bec99d",
            ],
        ],
        "3": [
            [
                "586acc90de78dc56898c1d59540066d1b76cc62713d83bbe23e492a76b7ea259",
                "586acc90de78dc56898c1d59540066d1b76cc62713d83bbe23e492a76b7ea259",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
            ],
            [
                "bc1f9db08a26cf42a29dc979eb03fb956f44cc3f9248afb726cd7673fecaccef",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
            ],
            [
                "af73b38e74355e25f7a89615152727a8dec814c0fb7e20d5e4032d83b2d9745f",
                "af73b38e74355e25f7a89615152727a8dec814c0fb7e20d5e4032d83b2d9745f",
                "af73b38e74355e25f7a89615152727a8dec814c0fb7e20d5e4032d83b2d9745f",
                "af73b38e74355e25f7a89615152727a8dec814c0fb7e20d5e4032d83b2d9745f",
            ],
            [
                "c86e6fce9870a9b8fc76e1530a4387e495d144caf39f2eec048b7c7eddc0969d",
                "c86e6fce9870a9b8fc76e1530a4387e495d144caf39f2eec048b7c7eddc0969d",
                "c86e6fce9870a9b8fc76e1530a4387e495d144caf39f2eec048b7c7eddc0969d",
                "c86e6fce9870a9b8fc76e1530a4387e495d144caf39f2eec048b7c7eddc0969d",
            ],
            [
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
            ],
            [
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
                "0cccb94db9266f013b1a33de2d4bfa10a5c0a170f4d46001fd42708b52603ff8",
            ],
            [
                "7be924f20cb6a2e5ebd85784ce71c19612d43d417970ac8c365d947e0354316a",
                "7be924f20cb6a2e5ebd85784ce71c19612d43d417970ac8c365d947e0354316a",
                "586acc90de78dc56898c1d59540066d1b76cc62713d83bbe23e492a76b7ea259",
                "586acc90de78dc56898c1d59540066d1b76cc62713d83bbe23e492a76b7ea259",
            ],
        ],
        "4": [
            [
                "1dd8fa3457ba133b1c4bda40062acf64663d27df5106e4449237861066e8b075",
            ],
        ],
        "5": [
            [
                "da6269dfe9eafd95837cb2f747e76af2b5a1424ec86aeaefa2751fc20213638e",
            ],
        ],
    },
    "bag": {
        "1": [
            "2847c0dde06c110c0e5a9cdd895da46084405baf8aee3a084d10b4c259b4bd90",
            "ccb045591570e2a72e707ee4668ed93f723dc2f6050b9af8966a181d00e4e6df",
            "8a63a00c4fbb7cdaa572bd18ec69b934c7dd170257a5d63055a94d4d4cfcc097",
            "76ac6ceefc7d3c3cf19c1baf4395f90f74f90f3da7640ce78daedd43892a06dc",
            "bcbb9fd104ba674577281b80322ecf87f0be2255ffc6fed26eb36c7284d6fd38",
            "177eaa6772592dc96dc70ee6bdbe94db0b62e247d041b9eb4070a89729d55ce9",
            "ec545a64d40d0b5f20af91a9b97cd8800b8f2dd416c9cf52734870657b6d07d6",
        ],
        "2": [
            "9dfb8bd33f742ba08c5ab8b2ea6212d1be0f450e6624374087809de00f4e4b4e",
            "7ff64e677c79c79587cb729fdda34aec168e0ec456f13f22c655ce46c4d95d14",
            "42b6dabbf82c7cf4ce192845b26478b6d7aaff257e37880e98bcbc04c148fae0",
            "ddbbb32f1539143f97a6e31bb23cb3b345bd66dacead7037022910b362a51879",
            "af6b551bc1e12c1551cf015e23d187e57ca2ea23ae1337abfea6ef79f2566c4c",
            "14315be966e6213dc2a3a7b716079e63bb978a420f8ee08814e09620cf130972",
            "7a2e316fe41307dd7804d85bd508bd8a867a5e29601b686e4e81e79f2e9cb185",
        ],
        "4": [
            "fd86e422cfc55935cce42d59f3780f6c1f0552b67afb689163dba6be36906705",
            "264e16c43b28a1e0005cbf475b68f158bc96bd2a1f77e4fcb704791730b9fcdf",
            "b231f1c28b8d5f89652b4a67e4a5e5d1c932c487180f914dfe767517943b3154",
            "0dc8ed4d0ec3d3c165e5e2a1deda021385b60e8cc1e0b9fe62917d3102f8ea8b",
            "4e0d43d9cb5e459926782145e5264bd31d664f03c1f470cc26c500c665d324f6",
            "358157908c71587777e7a67e6a3b2c7b64495b8363ed0e6fd841ee63da1dd94f",
            "1a7c61ad0b87d6c9d00f347c896baeb7e0721b9f8500120885dd894dd997fcbd",
        ],
    },
    "reserve": {
        "3": [
            "76f6363eefd454f76cdfa5722d157d45dc962c0af05b2d220c91f7d54137ce05",
            "4b30742d903517d05ce610047608a94806955ebacf576bc2e87f9f93a277a9cc",
            "e2ceb5a8c5881e8fd28700ff3be6f60d2df6f38e3f248d513d9530fcee74d1b9",
            "5968a4879db7c90d13703cf889f3e47934892d40b3f253d9e90ebb236b6ae67f",
        ],
    },
}
