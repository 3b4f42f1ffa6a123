"""``python -m gpunp``: prints the configuration."""

from gpunp import show_config

show_config()
