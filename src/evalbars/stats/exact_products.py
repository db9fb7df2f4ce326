"""Weighted column sums that are the same bits on every machine, whatever BLAS does.

A product ``weights @ columns`` through BLAS adds its terms in an order chosen by the
kernel (SkylakeX, Haswell, ...), and by how many other columns share the call: the last
bits of a column's sums then depend on the machine and on the other columns. Here each
column is cut into a few *slices*, floats whose values are whole multiples of a power of
two with at most ``b`` significant bits, chosen so that ``weight * 2**b <= 2**53``, where
``weight`` bounds the sum of a row's weights (non-negative whole numbers: bootstrap
counts, or 0/1 signs). Every product and partial sum of a slice is then a whole multiple
of its power of two below ``2**53`` of it: exact, in any order, with or without fused
multiply-adds. The slices' exact sums are added in one fixed order (the smallest first),
so a column's result depends only on its own values and the weights.

A column takes one slice when its values are whole numbers that fit (0/1 scores, counts),
else as many as its bits need, at most :data:`MAX_SLICES`; past them the bits more than
``MAX_SLICES * b`` below the column's largest value are left out (at 100,000 units, about
``2**-108`` of it), the same way on every machine.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_SLICES = 3
"""Slices a column is cut into at most: ``3 * b`` bits, 108 at 100,000 units."""

_MANTISSA_BITS = 53


@dataclass(frozen=True, slots=True)
class Slices:
    """Columns cut into exact slices (see :func:`cut`).

    ``pieces`` (units, p) holds the slices side by side; ``column`` (p,) names the column
    each piece belongs to and ``level`` (p,) its place, 0 for the largest.
    """

    pieces: np.ndarray
    column: np.ndarray
    level: np.ndarray
    n_columns: int


def slice_bits(weight: int) -> int:
    """Significant bits a slice may hold when a row's weights add up to at most ``weight``.

    >>> slice_bits(1), slice_bits(2), slice_bits(100_000), slice_bits(2**40)
    (52, 51, 36, 12)
    """
    return _MANTISSA_BITS - max(int(weight), 1).bit_length()


def cut(columns: np.ndarray, weight: int) -> Slices:
    """Cut each column of ``columns`` (units, m) into slices exact under ``weight``.

    ``weight`` bounds the sum of any row of the weights the slices will be multiplied
    by (non-negative whole numbers).

    Examples
    --------
    >>> x = np.array([[0.0, 0.1], [1.0, 0.7], [1.0, 0.2]])
    >>> s = cut(x, 3)
    >>> s.column.tolist(), s.level.tolist()
    ([0, 1, 1], [0, 0, 1])
    >>> bool(np.array_equal(s.pieces[:, 1] + s.pieces[:, 2], x[:, 1]))
    True
    """
    columns = np.asarray(columns, dtype=float)
    n_columns = columns.shape[1]
    bits = slice_bits(weight)
    largest = np.abs(columns).max(axis=0) if columns.shape[0] else np.zeros(n_columns)
    top = np.frexp(largest)[1]  # |value| < 2**top in every column
    left = columns.copy()
    pieces, owner, level = [], [], []
    for place in range(MAX_SLICES):
        step = top - (place + 1) * bits  # this slice's values are multiples of 2**step
        piece = np.ldexp(np.rint(np.ldexp(left, -step)), step)
        left -= piece
        for j in np.flatnonzero(piece.any(axis=0)):
            pieces.append(piece[:, j])
            owner.append(j)
            level.append(place)
        if not left.any():
            break
    return Slices(np.column_stack(pieces) if pieces else np.zeros((columns.shape[0], 0)),
                  np.array(owner, dtype=np.intp), np.array(level, dtype=np.intp), n_columns)


def join(products: np.ndarray, slices: Slices) -> np.ndarray:
    """Each column's result from its pieces' products (rows, p): added smallest first.

    >>> x = np.array([[0.1], [0.7], [0.2]])
    >>> s = cut(x, 3)
    >>> w = np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    >>> join(w @ s.pieces, s).ravel().tolist() == [0.1 + 2 * 0.7, 0.6000000000000001]
    True
    """
    out = np.zeros((products.shape[0], slices.n_columns))
    for place in range(MAX_SLICES - 1, -1, -1):
        at = np.flatnonzero(slices.level == place)
        out[:, slices.column[at]] += products[:, at]
    return out


def exact_product(weights: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``weights @ columns``, each column's result independent of BLAS and of the others.

    ``weights`` (rows, units) holds non-negative whole numbers.

    >>> w = np.array([[1, 2, 0], [0, 0, 3]])
    >>> x = np.array([[0.1, 5.0], [0.7, 1.0], [0.2, 2.0]])
    >>> exact_product(w, x).tolist()
    [[1.5, 7.0], [0.6000000000000001, 6.0]]
    """
    weights = np.asarray(weights)
    slices = cut(columns, int(weights.sum(axis=1).max()) if weights.size else 0)
    return join(np.dot(weights.astype(float), slices.pieces), slices)
