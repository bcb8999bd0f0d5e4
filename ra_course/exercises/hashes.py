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
                "208701a541fcfd30fd3ad2a8e74e67a8f5bd17a887985ef84859a7d78b0d2ee6",
            ],
            [
                "bc1f9db08a26cf42a29dc979eb03fb956f44cc3f9248afb726cd7673fecaccef",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
                "9033139149b65112a0c41fcaf5dbdd4786bcd0084462fed2456ef60b7609aa98",
            ],
            [
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
            ],
            [
                "8e330a71285bf8299ebb5406fe91e75155738ce11523c9844855567db99d7d20",
                "8e330a71285bf8299ebb5406fe91e75155738ce11523c9844855567db99d7d20",
                "8e330a71285bf8299ebb5406fe91e75155738ce11523c9844855567db99d7d20",
                "8e330a71285bf8299ebb5406fe91e75155738ce11523c9844855567db99d7d20",
            ],
            [
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
            ],
            [
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
            ],
            [
                "acbe5c17d51c77daa88112954b82dff7350104b73d46db4e3163265f4c081786",
                "acbe5c17d51c77daa88112954b82dff7350104b73d46db4e3163265f4c081786",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
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
            "3e8507ff9e5b0b6e5a0b8c427417e37524b17bb3462766f9f08fbd285bb7ff52",
            "f817e1d0ef779ead1ea9f6c24843ce301497f0fd94669de53ce5f7624d946464",
            "9b1fbebb9b54b19b4c92bcf31ecfefb86217fcea50d98c3c5bb88e691a0c2096",
            "6b216fc7a592cc39b05a75f6d99b3ea5c8f8b4f7815a811cc556840996d22451",
            "5a5608bcb22ab065832be78a08a2c5139783ee76862019086550a2df13885728",
            "b75f31caed636c8a2a94815121d3e3fb72afe29d9a62d617092e0b5924f653be",
            "8fb89557c43a1b71198c812724e9fd7a69958a6461c44f8ff3ac415dee3e581a",
        ],
        "2": [
            "c73afec4ac5207eeaa057bf335022d10c4bea556a07efeecf36ecb5b4f12fde4",
            "570d7be342c44ac70eed2f9b229aadf1486f22e4aaa636365b537afbb413babf",
            "34026450d7627dbaf02ed02ba2ddee833fedd8c4c00bbf30174ba29bc3540437",
            "2d443d863273628bea9fb0fafac49bdb54a4bc63fcddf234699e4d5cf9cff97b",
            "ca9804160eca6c954aecd4478d25955a6ed3358fe42a1d9488e7e3f0e80bba8d",
            "fcbcd2cba2513d787fd198f3f6c5bdc80e53d34dc38dff99068b513507e7f877",
            "46a6d547354e7aa801c742796a8be78fcbf43f2af837f67edac8a53722e9f157",
        ],
        "4": [
            "c07c0eae5366162c6b4de4e44a25ea9391d6b2ce221b0ada3b613eea47c7d339",
            "60acdfe25e23403b6dac391fb5f8db3ffda405a18fa35f7e7a63d1f4f08df3e8",
            "69aed87fe80fb5957cd02a1fccd7b3db889385cf3035c73800efd327636249f1",
            "0dc8ed4d0ec3d3c165e5e2a1deda021385b60e8cc1e0b9fe62917d3102f8ea8b",
            "3d07644821ba74f9041dc05438bc7b87fc00660ae6fdca015cd5d4a0a17cc133",
            "95bd433b65a783831f342f7c21bc50f314b47c0666a06f3d9d29d6a65420663e",
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
    "multiunit": {
        "3": [
            [
                "55fe4e1f3b981bd29dbe0c8655b8bf93a0868e9ee9146e3b692dc1d57aeeedd5",
                "6c18bf2211230620c36752e3538aa181b0650ba7506c167936b412cf30f30276",
                "77bc06f4571ce45dfee3bfdc8e0cb5b1dbe0c546a68758bf22985bbd2de00b21",
            ],
            [
                "40ca91774e129260975f1a47a3d34bba62f3ff2def70471e3c6e70de4db1d641",
                "324cd78a23feeb78451588d5420c1bb2ee4404832f8922b809b927067ed7c4ae",
                "55c715e6de0e712c9490345a48ec3084f181cda2a04498a86a249fcb1a07eafc",
            ],
            [
                "ed0c665948e8964cc5f1da48640b30145078e26ef9b49059087d7d0cdd9c43e4",
                "10a5e4590434cd0c59073abd069554f12fe110b589ff4621efcdf510d40f6928",
            ],
        ],
        "4": [
            [
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "7668b7fd4d317f276ffdb61ac954ecb277029370deacbc4b8a4b9996a73fbec6",
                "ab33ea28f6b56239efcc218af5fdda5ec8adeab6bbae93055be445c685821b06",
            ],
            [
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
                "90dc319b7a1bd28e043477a0b6d48abdd1a37127a08ae3797bfd8b56ce1f97ce",
                "93e83088765e075889ad023a2b1943832e2fa17d91e674325c76d529e5ffe2c5",
                "10c9bb3ab5a92bde394a4fe93dd81bcbe2de355ddbb5fc709a6585bc42add03c",
            ],
            [
                "ffe7da134880d1a9c48a78d9e1a1e4c4415def4dccee9784d504f5e734c42028",
                "8a5398484c908d0237945b9884e3cc9a2c444aa26e53bd5392c342f78adfb048",
            ],
        ],
    },
}
