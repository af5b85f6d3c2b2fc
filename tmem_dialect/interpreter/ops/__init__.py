"""Op implementations of the warp interpreter, one module per family of ops."""
