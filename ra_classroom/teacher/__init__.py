"""The teacher's side, in a notebook: the control room, its live panel, and a class's data.

`client` calls the teacher's API over HTTP (standard library only); `control` is the control room
(start the server, the way in, rounds, results) and `monitor` its live panel (ipywidgets);
`simulate` has scripted students for rehearsals, tests and the benchmark; `analysis` and `plots`
set a class's data against the theory (pandas, matplotlib).
"""
