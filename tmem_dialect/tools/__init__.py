"""Command-line tools (tmem-opt, tmem-run) and the xdsl.universe entry point."""
