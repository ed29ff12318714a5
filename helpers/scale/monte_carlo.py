"""The bit-packed Monte Carlo sign flip: ``significance._sign_flip_means``' means from the same
bits, bit for bit, in bounded memory, for sizes no chapter reaches."""

from __future__ import annotations

import sys

import numpy as np

#: Most signs the kernel draws at once by default (2**26 random bits, 8 MiB); the result does
#: not depend on it.
DEFAULT_MAX_SIGNS = 2**26

#: The largest table of subset sums (8 bytes per entry); look-ups gathered at once (2 MiB of
#: indices and values each: chosen by timing); most resamples drawn at once (8 bytes each).
_MAX_TABLE_BYTES, _LOOKUPS_AT_ONCE, _MAX_ROWS = 2**25, 2**18, 2**14


def _subset_sums(x: np.ndarray, bits: int) -> np.ndarray:
    """``table[j, v]``: the sum of ``x[bits * j + i]`` over the bits ``i`` set in ``v``, built one
    bit at a time (the same order, lowest bit first, on every CPU). ``bits`` divides ``x.size``."""
    blocks = x.reshape(-1, bits)
    table = np.zeros((blocks.shape[0], 2**bits))
    for i in range(bits):
        table[:, 2**i : 2 ** (i + 1)] = table[:, : 2**i] + blocks[:, i : i + 1]
    return table


def monte_carlo_sign_flips(
    nonzero: np.ndarray, n: int, n_resamples: int, gen: np.random.Generator, max_signs: int
) -> np.ndarray:
    """The means of ``significance._sign_flip_means`` (the idea, plainly), from the same bits: the
    flipped sum is read a byte (for very many changes, half a byte) at a time from a table of
    subset sums (no BLAS, whose rounding depends on the CPU), the look-ups added in order, block 0
    first; the words are drawn row after row: chunks change neither the draws nor the sums."""
    k = nonzero.size
    words = -(-k // 64)
    x = np.zeros(64 * words)
    x[:k] = nonzero
    per = 8 if 2**8 * 8 * words * 8 <= _MAX_TABLE_BYTES else 4  # bits per look-up
    table = _subset_sums(x, per).ravel()
    span = 2**8 if per == 8 else 2 * 2**4  # table entries per byte position
    shifts = [0] if per == 8 else [0, 4]  # a byte's look-ups: whole, or low half then high half
    low_byte = 0 if sys.byteorder == "little" else np.dtype(np.intp).itemsize - 1
    total = float(nonzero.sum())

    def means(rows: int) -> np.ndarray:
        draw = gen.integers(0, 2**64 - 1, size=(rows, words), dtype=np.uint64, endpoint=True)
        b = draw.astype("<u8", copy=False).view(np.uint8)
        if rows == 1:  # numpy sums a single column pairwise, several columns one row at a time
            b = np.repeat(b, 2, axis=0)
        b = b.T  # one row per byte position, one column per resample (a view, not a copy)
        cols = b.shape[1]
        group = max(1, min(b.shape[0], _LOOKUPS_AT_ONCE // cols))  # byte positions at once
        # Byte position g + i, half h, reads entry span * i + 2**per * h + bits of the tables
        # from byte position g on: the entry's multiple of 256 stays in the index's high bytes
        # for every group; the rest (0 for whole bytes, a multiple of 16 above a half's 4 bits)
        # joins the bits in the index's low byte: no cast, no add over the intp indices.
        offset = span * np.arange(group, dtype=np.intp)[:, None]
        offsets = [offset + 2**per * h for h in range(len(shifts))]
        index = [np.repeat(o - o % 256, cols, axis=1) for o in offsets]
        in_byte = [(o % 256).astype(np.uint8) for o in offsets]
        low = [ix.view(np.uint8)[:, low_byte :: ix.itemsize] for ix in index]
        # row 0 carries each resample's running sum, so adding a group's rows to it keeps
        # the order "block 0 first, one block after another" whatever the group size
        terms = np.empty((group + 1, cols))
        flipped = [np.zeros(cols) for _ in shifts]
        for g in range(0, b.shape[0], group):
            part = b[g : g + group]
            m = part.shape[0]
            here = table[span * g : span * (g + m)]
            for h, shift in enumerate(shifts):
                low[h][:m] = part if per == 8 else ((part >> shift) & 15) | in_byte[h][:m]
                # the indices are in range; mode="clip" lets take write into terms directly
                np.take(here, index[h][:m], out=terms[1 : m + 1], mode="clip")
                terms[0] = flipped[h]
                flipped[h] = np.add.reduce(terms[: m + 1], axis=0)
        both = flipped[0] if per == 8 else flipped[0] + flipped[1]
        return (total - 2 * both[:rows]) / n

    rows = max(1, min(max_signs, 64 * words * _MAX_ROWS) // (64 * words))  # resamples at once
    return np.concatenate([means(min(rows, n_resamples - s)) for s in range(0, n_resamples, rows)])
