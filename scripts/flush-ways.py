#!/usr/bin/env python3
"""Time five ways of replacing six small files durably in one folder.

docs/PERFORMANCE.md ("A season's fixed cost", "A season's reports started
to disk together") quotes these figures: the way ladder replaced its six
reports at first (each written, fsync'd, renamed, its folder synced), with
one folder sync for all of them, with fdatasync as well, with every file's
writeback started before any is flushed (what `files::replace_all` does
now), and with one syncfs (not used: it waits for every dirty file of the
filesystem).

Usage: scripts/flush-ways.py [FOLDER]   (default: a new folder under /tmp;
the disk under test is the one FOLDER is on). Prints each way's median of
20 rounds, three times.
"""
import ctypes
import os
import sys
import tempfile
import time

FILES = 6
DATA = b"x" * 3000


def write(d, i, flush):
    with open(f"{d}/.f{i}.tmp", "wb") as f:
        f.write(DATA)
        f.flush()
        if flush:
            flush(f.fileno())


def sync_folder(d):
    fd = os.open(d, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def rename(d, i):
    os.rename(f"{d}/.f{i}.tmp", f"{d}/f{i}")


def one_by_one(d):
    for i in range(FILES):
        write(d, i, os.fsync)
        rename(d, i)
        sync_folder(d)


def all_then_one_folder_sync(d, flush):
    for i in range(FILES):
        write(d, i, flush)
    for i in range(FILES):
        rename(d, i)
    sync_folder(d)


def one_folder_sync(d):
    all_then_one_folder_sync(d, os.fsync)


def fdatasync_and_one_folder_sync(d):
    all_then_one_folder_sync(d, os.fdatasync)


def writeback_first(d):
    # start every file's writeback at once (SYNC_FILE_RANGE_WRITE = 2), so
    # one journal commit may carry all of them, then fdatasync each
    libc = ctypes.CDLL(None, use_errno=True)
    fds = []
    for i in range(FILES):
        fd = os.open(f"{d}/.f{i}.tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, DATA)
        libc.sync_file_range(fd, ctypes.c_int64(0), ctypes.c_int64(0), 2)
        fds.append(fd)
    for fd in fds:
        os.fdatasync(fd)
        os.close(fd)
    for i in range(FILES):
        rename(d, i)
    sync_folder(d)


def one_syncfs(d):
    libc = ctypes.CDLL(None, use_errno=True)
    for i in range(FILES):
        write(d, i, None)
    fd = os.open(d, os.O_RDONLY)
    libc.syncfs(fd)
    for i in range(FILES):
        rename(d, i)
    os.fsync(fd)
    os.close(fd)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="flush-ways-")
    os.makedirs(d, exist_ok=True)
    for _ in range(3):
        for way in (
            one_by_one,
            one_folder_sync,
            fdatasync_and_one_folder_sync,
            writeback_first,
            one_syncfs,
        ):
            times = []
            for _ in range(20):
                start = time.perf_counter()
                way(d)
                times.append(time.perf_counter() - start)
            times.sort()
            print(f"{way.__name__:32} {times[10] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
