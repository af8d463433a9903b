"""Truf Arena: a tournament engine and bot-vs-bot arena for trick-taking card games (Truf,
Truco, and Ruff and Trump)."""

__version__ = "0.1.0"
