"""Truf Arena: a tournament engine and bot-vs-bot arena for Truf."""

__version__ = "0.1.0"
