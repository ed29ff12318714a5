"""The machinery for scale that the teaching module calls beyond the chapters' sizes, with the
same answers: exact distributions by FFT (:mod:`.fft`) and the bit-packed Monte Carlo sign flip
(:mod:`.monte_carlo`). It imports no teaching module."""
