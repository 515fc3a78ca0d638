"""Bridges between tapete and other engines, for cross-play and comparison."""
