"""How a strided float32 matrix or vector is passed to BLAS without a copy.

A matrix whose elements along one axis are adjacent (unit stride) and whose
other stride is at least that axis's length is a BLAS matrix in row- or
column-major order, its leading dimension that other stride. The library
takes one layout for the whole call, so an operand stored in the other
order is passed as its transpose, with its transpose flag flipped (a
row-major m x k A is the same memory as a column-major k x m A^T). Only a
matrix with no unit stride at all, negative or zero (broadcast) strides, or
strides that are not whole elements needs a copy. A vector goes as it is,
its stride the increment (a negative one too, as BLAS walks it backwards);
only a zero or fractional stride needs a copy.

These functions work on (shape, strides in bytes), so that numpy arrays and
pyopencl device arrays share them.
"""

ITEM = 4  # bytes of a float32

ROW, COL = "row", "col"


def matrix_order(shape, strides):
    """(order, ld) under which a 2-D float32 array can be passed as it is:
    order ROW (row-major, ld >= columns) or COL (column-major, ld >= rows);
    None when it cannot and needs a copy. Row-major wins where both fit."""
    rows, cols = shape
    if rows == 0 or cols == 0:
        return ROW, max(1, cols)
    if strides[0] % ITEM or strides[1] % ITEM:
        return None
    sr, sc = strides[0] // ITEM, strides[1] // ITEM
    # A stride along an axis of length 1 is never used, whatever it is.
    if (cols == 1 or sc == 1) and (rows == 1 or sr >= max(1, cols)):
        return ROW, sr if rows > 1 else max(1, cols)
    if (rows == 1 or sr == 1) and (cols == 1 or sc >= max(1, rows)):
        return COL, sc if cols > 1 else max(1, rows)
    return None


def vector_inc(n, stride):
    """(first-element offset in elements, inc) for a 1-D float32 array of n
    elements, as BLAS takes it (with a negative inc BLAS starts from the
    lowest address); None when it needs a copy."""
    if n <= 1:
        return 0, 1
    if stride % ITEM or stride == 0:
        return None
    inc = stride // ITEM
    return (inc * (n - 1) if inc < 0 else 0), inc
