"""Ruff and Trump (seed 004, rulings F1..F11): rules, state, views and replay records.

Imports neither grpc nor rich; the arena knows it through ``arena.games.registry``.
"""
