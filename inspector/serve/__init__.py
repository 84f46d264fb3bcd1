"""``inspector serve``'s web server: the inspector in a browser, one app process a
connection (textual-serve's ``AppService``), behind a token, on loopback by default.

Needs the optional extra ``claim-inspector[serve]`` (textual-serve, aiohttp); the CLI
imports this package only once it knows they are installed.  It never imports the
TUI: each session is a separate ``python -m inspector`` process speaking Textual's
web driver over its standard input and output.
"""
