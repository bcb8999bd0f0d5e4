"""The server: the students' websocket and page, the teacher's HTTP API, and running the process.

A page's messages are read strictly (`protocol`, with the size and rate `limits`) and handled by
`sockets` as its own student; `classroom` runs each command as one transaction of the store in a
worker thread and hands the events to this process's pages (`hub`); `teacher_api` is the
teacher's side; `app` puts them together for uvicorn, and `server` runs it (also as a child
process). `links` gives the address, the room's link and its QR code. `static/` is the page.
"""
