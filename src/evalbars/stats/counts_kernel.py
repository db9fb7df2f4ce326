"""The compiled counting kernel: numpy's bounded draws, drawn and counted where they fall.

Imported only by :mod:`evalbars.stats.draw_counts`, and only where llvmlite (the optional
extra ``evalbars[fast]``) is installed. The kernel is a few dozen lines of LLVM IR below,
compiled for this machine's processor when this module is imported (about 0.02 s; with
llvmlite's import, 0.06 s). It repeats numpy's arithmetic for ``Generator.integers(0, n)``
(n < 2**32) on a PCG64 generator, so it draws exactly numpy's indices:

- PCG64 (numpy's ``pcg64_random_r``): the 128-bit state steps to ``state * M + inc``, and
  the output is the XSL-RR of the new state, ``rotr64(high ^ low, state >> 122)``;
- ``next_uint32`` hands out the low half of an output, then keeps its high half for the
  next call (``has_uint32`` and ``uinteger`` in the generator's state);
- Lemire's method (``buffered_bounded_lemire_uint32``): a word ``w`` gives
  ``m = w * n``, and the draw is ``m >> 32`` unless the low half of ``m`` is below
  ``(2**32 - n) % n``, when the next word is taken instead.

Each draw is tallied in a byte in place; a wrap past 255 adds 256 to the row's extra
floats. The generator's state is read before and written back after, so the generator
goes on exactly as if numpy had drawn. Called through ctypes, which releases the GIL: the
resample blocks' threads run it on every core at once.
"""
from __future__ import annotations

import ctypes
from typing import Callable

import llvmlite.binding as llvm
import numpy as np

_IR = r"""
; numpy's PCG64 as the kernel holds it: the state, the increment, and whether the high
; half of the last output (kept as the fourth field) is still to be handed out.
%pcg64 = type { i128, i128, i1, i32 }

declare i64 @llvm.fshr.i64(i64, i64, i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; numpy's pcg64_next32: the low half of the next 64-bit output, then its high half.
define internal i32 @next32(ptr %g) alwaysinline {
entry:
  %has_p = getelementptr %pcg64, ptr %g, i32 0, i32 2
  %kept_p = getelementptr %pcg64, ptr %g, i32 0, i32 3
  %has = load i1, ptr %has_p
  br i1 %has, label %kept, label %step
kept:
  store i1 false, ptr %has_p
  %high_half = load i32, ptr %kept_p
  ret i32 %high_half
step:
  ; state * multiplier + increment, then the XSL-RR output of the new state
  %state_p = getelementptr %pcg64, ptr %g, i32 0, i32 0
  %inc_p = getelementptr %pcg64, ptr %g, i32 0, i32 1
  %state = load i128, ptr %state_p
  %inc = load i128, ptr %inc_p
  %multiplied = mul i128 %state, 47026247687942121848144207491837523525
  %next = add i128 %multiplied, %inc
  store i128 %next, ptr %state_p
  %high128 = lshr i128 %next, 64
  %high = trunc i128 %high128 to i64
  %low = trunc i128 %next to i64
  %folded = xor i64 %high, %low
  %turn128 = lshr i128 %next, 122
  %turn = trunc i128 %turn128 to i64
  %output = call i64 @llvm.fshr.i64(i64 %folded, i64 %folded, i64 %turn)
  %upper64 = lshr i64 %output, 32
  %upper = trunc i64 %upper64 to i32
  store i32 %upper, ptr %kept_p
  store i1 true, ptr %has_p
  %lower = trunc i64 %output to i32
  ret i32 %lower
}

; numpy's buffered_bounded_lemire_uint32: a draw from 0 to n - 1.
define internal i64 @bounded(ptr %g, i64 %n, i64 %threshold) alwaysinline {
entry:
  br label %try
try:
  %word = call i32 @next32(ptr %g)
  %wide = zext i32 %word to i64
  %m = mul i64 %wide, %n
  %leftover = and i64 %m, 4294967295
  %rejected = icmp ult i64 %leftover, %threshold
  br i1 %rejected, label %try, label %accepted
accepted:
  %unit = lshr i64 %m, 32
  ret i64 %unit
}

; Rows 0 to rows - 1 of tally (rows x n bytes): n draws each, counted modulo 256; a wrap
; sets flagged[row] and adds 256 to the same cell of extra (rows x n doubles, zero where
; flagged is 0), if extra is not null. words holds the generator as six 64-bit words:
; state (low, high), increment (low, high), has_uint32, uinteger; the state and the last
; two are written back.
define void @count_draws(ptr noalias %words, i64 %n, i64 %threshold, i64 %rows,
                         ptr noalias %tally, ptr noalias %extra, ptr noalias %flagged) {
entry:
  %g = alloca %pcg64
  %row = alloca i64
  %item = alloca i64
  %no_extra = icmp eq ptr %extra, null
  %w1_p = getelementptr i64, ptr %words, i64 1
  %w2_p = getelementptr i64, ptr %words, i64 2
  %w3_p = getelementptr i64, ptr %words, i64 3
  %w4_p = getelementptr i64, ptr %words, i64 4
  %w5_p = getelementptr i64, ptr %words, i64 5
  %state_p = getelementptr %pcg64, ptr %g, i32 0, i32 0
  %inc_p = getelementptr %pcg64, ptr %g, i32 0, i32 1
  %has_p = getelementptr %pcg64, ptr %g, i32 0, i32 2
  %kept_p = getelementptr %pcg64, ptr %g, i32 0, i32 3
  %state = call i128 @join(ptr %words, ptr %w1_p)
  store i128 %state, ptr %state_p
  %inc = call i128 @join(ptr %w2_p, ptr %w3_p)
  store i128 %inc, ptr %inc_p
  %has_word = load i64, ptr %w4_p
  %has = icmp ne i64 %has_word, 0
  store i1 %has, ptr %has_p
  %kept_word = load i64, ptr %w5_p
  %kept = trunc i64 %kept_word to i32
  store i32 %kept, ptr %kept_p
  store i64 0, ptr %row
  br label %next_row

next_row:
  %r = load i64, ptr %row
  %rows_left = icmp ult i64 %r, %rows
  br i1 %rows_left, label %clear_row, label %done

clear_row:
  %base = mul i64 %r, %n
  %counts = getelementptr i8, ptr %tally, i64 %base
  call void @llvm.memset.p0.i64(ptr %counts, i8 0, i64 %n, i1 false)
  %flag_p = getelementptr i8, ptr %flagged, i64 %r
  %flag = load i8, ptr %flag_p
  store i8 0, ptr %flag_p
  %had_wrap = icmp ne i8 %flag, 0
  %had_extra = select i1 %no_extra, i1 false, i1 %had_wrap
  br i1 %had_extra, label %clear_extra, label %start_row

clear_extra:
  %extra_row = getelementptr double, ptr %extra, i64 %base
  %extra_bytes = shl i64 %n, 3
  call void @llvm.memset.p0.i64(ptr %extra_row, i8 0, i64 %extra_bytes, i1 false)
  br label %start_row

start_row:
  store i64 0, ptr %item
  br label %next_item

next_item:
  %i = load i64, ptr %item
  %items_left = icmp ult i64 %i, %n
  br i1 %items_left, label %draw, label %end_row

draw:
  %unit = call i64 @bounded(ptr %g, i64 %n, i64 %threshold)
  %cell = add i64 %base, %unit
  %count_p = getelementptr i8, ptr %tally, i64 %cell
  %count = load i8, ptr %count_p
  %counted = add i8 %count, 1
  store i8 %counted, ptr %count_p
  %wrapped = icmp eq i8 %counted, 0
  br i1 %wrapped, label %carry, label %drawn

carry:
  store i8 1, ptr %flag_p
  br i1 %no_extra, label %drawn, label %add_carry

add_carry:
  %carry_p = getelementptr double, ptr %extra, i64 %cell
  %carried = load double, ptr %carry_p
  %more = fadd double %carried, 256.0
  store double %more, ptr %carry_p
  br label %drawn

drawn:
  %i1 = add i64 %i, 1
  store i64 %i1, ptr %item
  br label %next_item

end_row:
  %r1 = add i64 %r, 1
  store i64 %r1, ptr %row
  br label %next_row

done:
  %final = load i128, ptr %state_p
  call void @split(i128 %final, ptr %words, ptr %w1_p)
  %has_final = load i1, ptr %has_p
  %has_out = zext i1 %has_final to i64
  store i64 %has_out, ptr %w4_p
  %kept_final = load i32, ptr %kept_p
  %kept_out = zext i32 %kept_final to i64
  store i64 %kept_out, ptr %w5_p
  ret void
}

; a 128-bit number from its low and high 64-bit words, and back
define internal i128 @join(ptr %low_p, ptr %high_p) alwaysinline {
entry:
  %low = load i64, ptr %low_p
  %high = load i64, ptr %high_p
  %low128 = zext i64 %low to i128
  %high128 = zext i64 %high to i128
  %shifted = shl i128 %high128, 64
  %joined = or i128 %shifted, %low128
  ret i128 %joined
}

define internal void @split(i128 %value, ptr %low_p, ptr %high_p) alwaysinline {
entry:
  %low = trunc i128 %value to i64
  %high128 = lshr i128 %value, 64
  %high = trunc i128 %high128 to i64
  store i64 %low, ptr %low_p
  store i64 %high, ptr %high_p
  ret void
}
"""

_MASK = (1 << 64) - 1


def _compile() -> tuple[object, Callable[..., None]]:
    """The kernel compiled for this processor: the engine (kept alive) and the function."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=3)
    module = llvm.parse_assembly(_IR)
    module.triple, module.data_layout = machine.triple, str(machine.target_data)
    module.verify()
    passes = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(3))
    passes.getModulePassManager().run(module, passes)
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    pointer, size = ctypes.c_void_p, ctypes.c_int64
    signature = ctypes.CFUNCTYPE(None, pointer, size, size, size, pointer, pointer, pointer)
    return engine, signature(engine.get_function_address("count_draws"))


_ENGINE, _COUNT = _compile()


def count_draws(rng: np.random.Generator, n_units: int, rows: int, tally: np.ndarray,
                flagged: np.ndarray, extra: np.ndarray | None = None) -> np.ndarray | None:
    """Draw ``rows`` resamples of ``n_units`` units from ``rng`` and count them in place.

    ``rng`` has a PCG64 bit generator; it goes on as if ``rng.integers(0, n_units,
    size=(rows, n_units))`` had been called. ``tally`` (C-contiguous uint8, at least
    ``rows`` rows of ``n_units``) gets each row's counts modulo 256 and ``flagged`` (bool,
    one per row) marks the rows with a count past 255. The rest of those counts,
    ``256 * wraps``, goes into ``extra`` (float64, the shape of ``tally``, zero where
    ``flagged`` is False; cleared first in rows flagged by an earlier call), which is
    returned. Without ``extra`` (None) none is allocated unless a count passes 255 (from
    a uniform bootstrap, with probability below 1e-500): then it is, and the rows are
    drawn again from the generator's state before the call.

    >>> tally, flagged = np.empty((2, 3), np.uint8), np.zeros(2, np.bool_)
    >>> count_draws(np.random.default_rng(0), 3, 2, tally, flagged) is None
    True
    >>> drawn = np.random.default_rng(0).integers(0, 3, size=(2, 3))
    >>> [np.bincount(row, minlength=3).tolist() for row in drawn] == tally.tolist()
    True
    """
    if not (2 <= n_units < 2**32 and 0 <= rows <= min(len(tally), len(flagged))
            and tally.dtype == np.uint8 and tally.shape[1:] == (n_units,)
            and flagged.dtype == np.bool_ and tally.flags.c_contiguous
            and flagged.flags.c_contiguous
            and (extra is None or (extra.dtype == np.float64 and extra.shape == tally.shape
                                   and extra.flags.c_contiguous))):
        raise ValueError("count_draws: arrays of the wrong type or shape")
    generator = rng.bit_generator
    if type(generator) is not np.random.PCG64:
        raise ValueError("count_draws: the kernel reproduces PCG64 only")
    before = generator.state
    words = np.array([before["state"]["state"] & _MASK, before["state"]["state"] >> 64,
                      before["state"]["inc"] & _MASK, before["state"]["inc"] >> 64,
                      before["has_uint32"], before["uinteger"]], dtype=np.uint64)
    _COUNT(words.ctypes.data, n_units, (2**32 - n_units) % n_units, rows, tally.ctypes.data,
           None if extra is None else extra.ctypes.data, flagged.ctypes.data)
    if extra is None and flagged[:rows].any():  # the wrapped counts were not kept
        generator.state = before
        return count_draws(rng, n_units, rows, tally, flagged, np.zeros(tally.shape))
    after = dict(before, state=dict(before["state"], state=int(words[0]) | int(words[1]) << 64),
                 has_uint32=int(words[4]), uinteger=int(words[5]))
    generator.state = after
    return extra
