"""evalbars: is that improvement real? Error bars and paired comparisons for eval scores."""
__version__ = "0.1.0"
