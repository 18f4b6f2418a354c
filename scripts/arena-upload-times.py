#!/usr/bin/env python3
"""Wall time of one arena upload (`POST /api/bots`) of a .tar.gz holding many
small files, for two ladder binaries side by side (docs/PERFORMANCE.md,
"Arena uploads").

Usage: scripts/arena-upload-times.py OLD_LADDER NEW_LADDER [FILES...]
Each count of files (default 1000 5000 20000) is uploaded to a fresh arena
of each binary, best of three; the arena lives under the current folder's
file system (a temporary folder in it), as a user's would.
"""
import io, os, socket, subprocess, sys, tarfile, tempfile, time, urllib.request


def archive(files):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for i in range(files):
            info = tarfile.TarInfo(f"lib/f{i}.py")
            t.addfile(info, io.BytesIO(b""))
        bot = b"print('x')\n"
        info = tarfile.TarInfo("bot.py")
        info.size = len(bot)
        t.addfile(info, io.BytesIO(bot))
    return out.getvalue()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def upload(binary, body):
    with tempfile.TemporaryDirectory(dir=".") as tmp:
        arena = os.path.join(tmp, "a")
        quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([binary, "arena", "init", arena, "--game", "breakthrough"], **quiet)
        subprocess.run([binary, "arena", "add", arena, "r", "--builtin", "random"], **quiet)
        port = free_port()
        server = subprocess.Popen(
            [binary, "arena", "serve", arena, "--listen", f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port)).close()
                    break
                except OSError:
                    time.sleep(0.05)
            url = (f"http://127.0.0.1:{port}/api/bots"
                   "?name=many&file=b.tar.gz&command=python3+bot.py")
            request = urllib.request.Request(url, data=body, method="POST",
                                             headers={"X-Ladder": "1"})
            start = time.perf_counter()
            with urllib.request.urlopen(request, timeout=600) as answer:
                assert answer.status == 201, answer.status
            return time.perf_counter() - start
        finally:
            server.kill()
            server.wait()


old, new = sys.argv[1], sys.argv[2]
counts = [int(n) for n in sys.argv[3:]] or [1000, 5000, 20000]
print("| files | before | after | ratio |")
print("| ---: | ---: | ---: | ---: |")
for files in counts:
    body = archive(files)
    a = min(upload(old, body) for _ in range(3))
    b = min(upload(new, body) for _ in range(3))
    print(f"| {files:,} | {a:.2f} s | {b:.2f} s | {a / b:.1f}x |")
