"""The classroom server."""
