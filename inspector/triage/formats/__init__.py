"""Reading what real tools write (issue 31): the records of a foreign log, found
by a preset, each turned into one canonical record line."""
