"""Screens pushed over the main view: help and the suite summary."""
