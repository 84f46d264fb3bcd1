"""Shared I/O: bounded reads and whole-or-nothing writes.

``reading`` opens only regular files and reads at most a limit's bytes, with a
clear error for anything else; ``writing`` writes new files whole or not at all
(a temporary file, fsync, rename) and never over a file it did not create.
Suites, logs, exports, screenshots and the palette read and write through here.
"""
