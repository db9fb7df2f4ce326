"""The one error class for bad input."""


class EvalbarsError(ValueError):
    """Bad input: the message names what is wrong and where (ids, columns, rows).

    The CLI prints it as one line on stderr and exits with status 2.
    """
