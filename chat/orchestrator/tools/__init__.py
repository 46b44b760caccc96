"""Tools the workflow nodes call. Importing this package registers every tool."""
