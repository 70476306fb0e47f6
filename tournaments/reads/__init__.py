"""Reads: load rows and hand them to the rules; they write nothing."""
