"""Benchmarks run by hand (see docs/performance.md); the burst helpers are shared with the
burst and fault tests."""
