"""The one error class for bad input."""
from __future__ import annotations


class EvalbarsError(ValueError):
    """Bad input: the message names what is wrong and where (ids, columns, rows).

    An error about one argument carries its structure, ``parameter``, ``value`` and what
    was ``expected``, so that each surface names the argument its own way, once: Python
    by the keyword (:meth:`argument`), the command line by its flag (:meth:`worded`). The
    CLI prints the error as one line on stderr and exits with status 2.

    >>> error = EvalbarsError.argument("confidence_level", "x", "a number between 0 and 1")
    >>> str(error)
    "confidence_level must be a number between 0 and 1, got 'x'"
    >>> error.worded("--confidence-level")
    "--confidence-level must be a number between 0 and 1, got 'x'"
    """

    def __init__(self, message: str, *, parameter: str | None = None, value: object = None,
                 expected: str | None = None) -> None:
        super().__init__(message)
        self.parameter, self.value, self.expected = parameter, value, expected

    @classmethod
    def argument(cls, parameter: str, value: object, expected: str) -> EvalbarsError:
        """The error for argument ``parameter``: ``value`` is not ``expected``."""
        return cls(_sentence(parameter, value, expected), parameter=parameter, value=value,
                   expected=expected)

    def worded(self, name: str) -> str:
        """The message with the argument called ``name`` (a flag); as it is otherwise."""
        if self.parameter is None or self.expected is None:
            return str(self)
        return _sentence(name, self.value, self.expected)


def _sentence(name: str, value: object, expected: str) -> str:
    return f"{name} must be {expected}, got {value!r}"
