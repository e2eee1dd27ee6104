# Sobol points, their normal transform and Gauss-Hermite rules (src/qmc.c).

# For every k <= kmax and every block of 2^k consecutive points starting at a
# multiple of 2^k, each column has exactly one point in each interval
# [j / 2^k, (j + 1) / 2^k).
expect_dyadic_strata <- function(x, kmax) {
  for (k in 0:kmax) {
    m <- 2^k
    nb <- nrow(x) %/% m
    rows <- seq_len(nb * m)
    block <- (rows - 1) %/% m
    ok <- apply(x[rows, , drop = FALSE], 2L, function(xj) {
      all(tabulate(block * m + floor(xj * m) + 1, nbins = nb * m) == 1L)
    })
    expect_true(all(ok), info = sprintf("k = %d", k))
  }
}

# Exclusive or of whole numbers in [0, 2^32), via 16-bit halves.
xor32 <- function(a, b) {
  hi <- bitwXor(as.integer(a %/% 65536), as.integer(b %/% 65536))
  lo <- bitwXor(as.integer(a %% 65536), as.integer(b %% 65536))
  65536 * hi + lo
}

test_that("unscrambled points reproduce the published sequence", {
  # First 16 points in 5 dimensions, times 16 (scipy.stats.qmc.Sobol with
  # scramble = False, which uses the same Joe-Kuo table and Gray-code order).
  ref <- matrix(c(
    0, 0, 0, 0, 0,
    8, 8, 8, 8, 8,
    12, 4, 4, 4, 12,
    4, 12, 12, 12, 4,
    6, 6, 10, 14, 6,
    14, 14, 2, 6, 14,
    10, 2, 14, 10, 10,
    2, 10, 6, 2, 2,
    3, 5, 15, 7, 9,
    11, 13, 7, 15, 1,
    15, 1, 11, 3, 5,
    7, 9, 3, 11, 13,
    5, 3, 5, 9, 15,
    13, 11, 13, 1, 7,
    9, 7, 1, 13, 3,
    1, 15, 9, 5, 11
  ), ncol = 5, byrow = TRUE) / 16
  expect_identical(sobol_points(16, 5, scramble = FALSE), ref)
  # The first coordinate does not depend on d; d = 1 is van der Corput.
  expect_identical(sobol_points(16, 1, scramble = FALSE), ref[, 1, drop = FALSE])
  # skip continues the same sequence.
  expect_identical(sobol_points(6, 5, scramble = FALSE, skip = 10), ref[11:16, ])
  expect_identical(sobol_points(0, 3, scramble = FALSE), matrix(0, 0, 3))
})

test_that("high dimensions follow from the table's direction numbers", {
  x <- sobol_points(8, 21201, scramble = FALSE)
  expect_identical(dim(x), c(8L, 21201L))
  # Point 0 is the origin and point 1 is (1/2, ..., 1/2) in every dimension.
  expect_true(all(x[1, ] == 0))
  expect_true(all(x[2, ] == 0.5))
  # Points 2..7 are XORs of v_1 = m_1/2, v_2 = m_2/4, v_3 = m_3/8 in Gray-code
  # order (v1^v2, v2, v2^v3, v1^v2^v3, v1^v3, v3).  Table lines:
  #   1000  13  3396  1 1 3 ...   -> v = 1/2, 1/4, 3/8
  #   1001  13  3420  1 3 1 ...   -> v = 1/2, 3/4, 1/8
  #   21201 18 131059 1 1 7 ...   -> v = 1/2, 1/4, 7/8
  expect_identical(x[, 1000] * 8, c(0, 4, 6, 2, 1, 5, 7, 3))
  expect_identical(x[, 1001] * 8, c(0, 4, 2, 6, 7, 3, 5, 1))
  expect_identical(x[, 21201] * 8, c(0, 4, 6, 2, 5, 1, 3, 7))
  # Points 1000..1002 of dimensions 21199..21201, times 1024 (scipy).
  y <- sobol_points(3, 21201, scramble = FALSE, skip = 1000)
  ref <- matrix(c(
    937, 969, 85,
    425, 457, 597,
    681, 201, 853
  ), ncol = 3, byrow = TRUE)
  expect_identical(y[, 21199:21201] * 1024, ref)
})

test_that("unscrambled points are stratified in every dyadic interval", {
  x <- sobol_points(1024, 40, scramble = FALSE)
  expect_dyadic_strata(x, 10)
  y <- sobol_points(256, 21201, scramble = FALSE, skip = 256)
  expect_dyadic_strata(y[, c(1:5, 999:1001, 21190:21201)], 8)
  expect_true(all(x >= 0 & x < 1))
})

test_that("scrambled points are uniform and keep the stratification", {
  set.seed(20240611)
  x <- sobol_points(4096, 8)
  expect_true(all(x >= 0 & x < 1))
  # Stratification makes these far more precise than for iid points
  # (sd of an iid mean would be 0.0045).
  expect_lt(max(abs(colMeans(x) - 0.5)), 1e-3)
  expect_lt(max(abs(apply(x, 2, var) - 1 / 12)), 1e-3)
  expect_dyadic_strata(x, 12)
  # A scramble moves the origin and mixes the coordinates.
  expect_false(any(x[1, ] == 0))
  expect_lt(max(abs(cor(x)[upper.tri(diag(8))])), 0.05)
})

test_that("set.seed() reproduces scrambled points exactly", {
  set.seed(7)
  a <- sobol_points(64, 5)
  set.seed(7)
  b <- sobol_points(64, 5)
  expect_identical(a, b)
  set.seed(8)
  expect_false(identical(a, sobol_points(64, 5)))
  # Unscrambled points draw nothing.
  set.seed(7)
  sobol_points(64, 5, scramble = FALSE)
  u1 <- runif(1)
  set.seed(7)
  u2 <- runif(1)
  expect_identical(u1, u2)
})

test_that("the scramble draws follow the documented order", {
  d <- 3L
  # the words a scrambled call draws, each from two uniforms
  set.seed(11)
  u <- runif(66 * d)
  odd <- seq(1, length(u), by = 2)
  w <- 65536 * floor(65536 * u[odd]) + floor(65536 * u[odd + 1])
  # A scrambled call consumes exactly 66 d uniform draws.
  set.seed(11)
  sobol_points(10, d)
  after <- runif(1)
  set.seed(11)
  runif(66 * d)
  expect_identical(after, runif(1))
  # The points are those of the pure generator with these words.
  set.seed(11)
  expect_identical(sobol_points(32, d),
                   .Call(C_qmc_sobol, 32L, d, 0L, w, FALSE))
})

test_that("the scramble is a matrix scramble plus a digital shift", {
  d <- 4L
  plain <- sobol_points(64, d, scramble = FALSE) * 2^32
  # All-zero words: identity matrix, no shift.
  zero <- numeric(33 * d)
  expect_identical(.Call(C_qmc_sobol, 64L, d, 0L, zero, FALSE) * 2^32, plain)
  # A shift alone XORs every point with it; point 0 is the shift.
  shift <- c(0x9e3779b9, 0x12345678, 0xfedcba98, 1)
  w <- zero
  w[33 * seq_len(d)] <- shift
  x <- .Call(C_qmc_sobol, 64L, d, 0L, w, FALSE) * 2^32
  expect_identical(x[1, ], shift)
  for (j in seq_len(d)) expect_identical(x[, j], xor32(plain[, j], shift[j]))
  # The matrix only uses the bits above its unit diagonal: all-ones rows
  # make output bit r the parity of input bits 0..r (from the top), which
  # maps 1/2 (bit 0 only) to 1 - 2^-32 (all bits set).
  w <- zero
  w[seq_len(32)] <- 2^32 - 1
  x <- .Call(C_qmc_sobol, 2L, 1L, 0L, w[1:33], FALSE)
  expect_identical(x[2, 1], 1 - 2^-32)
})

test_that("sobol_normal() is qnorm() at the cell midpoints", {
  set.seed(3)
  u <- sobol_points(1024, 6)
  set.seed(3)
  z <- sobol_normal(1024, 6)
  expect_identical(z, qnorm(u + 2^-33))
  z0 <- sobol_normal(4, 2, scramble = FALSE)
  expect_true(all(is.finite(z0)))
  expect_identical(z0[1, ], rep(qnorm(2^-33), 2))
  set.seed(4)
  z <- sobol_normal(4096, 4)
  expect_lt(max(abs(colMeans(z))), 0.01)
  expect_lt(max(abs(apply(z, 2, var) - 1)), 0.02)
  # E max(Z, 0) = 1 / sqrt(2 pi).
  expect_lt(abs(mean(pmax(z[, 1], 0)) - 1 / sqrt(2 * pi)), 2e-3)
})

test_that("Gauss-Hermite rules integrate even moments exactly", {
  for (n in c(1, 2, 3, 5, 10, 20, 50, 100)) {
    gh <- gauss_hermite(n)
    expect_length(gh$nodes, n)
    expect_length(gh$weights, n)
    expect_false(is.unsorted(gh$nodes, strictly = TRUE))
    expect_identical(gh$nodes, -rev(gh$nodes))
    expect_lt(abs(sum(gh$weights) - 1), 1e-13)
    # E Z^(2k) = (2k - 1)!! for 2k <= 2n - 1.
    for (k in seq_len(n - 1L)) {
      expect_equal(sum(gh$weights * gh$nodes^(2 * k)),
                   prod(seq(1, 2 * k - 1, by = 2)), tolerance = 1e-11,
                   info = sprintf("n = %d, k = %d", n, k))
    }
  }
  # Closed forms: n = 2 has nodes +-1, n = 3 has 0, +-sqrt(3).
  expect_equal(gauss_hermite(2), list(nodes = c(-1, 1), weights = c(0.5, 0.5)),
               tolerance = 1e-15)
  expect_equal(gauss_hermite(3),
               list(nodes = c(-sqrt(3), 0, sqrt(3)),
                    weights = c(1 / 6, 2 / 3, 1 / 6)), tolerance = 1e-15)
})

test_that("Gauss-Hermite rules match E cos(Z) and Golub-Welsch", {
  gh <- gauss_hermite(20)
  expect_lt(abs(sum(gh$weights * cos(gh$nodes)) - exp(-1 / 2)), 1e-14)
  # Golub-Welsch: eigenvalues of the Jacobi matrix and squared first
  # components of its eigenvectors.
  n <- 30
  b <- sqrt(seq_len(n - 1))
  J <- diag(0, n)
  J[cbind(1:(n - 1), 2:n)] <- b
  J[cbind(2:n, 1:(n - 1))] <- b
  e <- eigen(J, symmetric = TRUE)
  o <- order(e$values)
  gh <- gauss_hermite(n)
  expect_lt(max(abs(gh$nodes - e$values[o])), 1e-12)
  expect_lt(max(abs(gh$weights - e$vectors[1, o]^2)), 1e-13)
})

test_that("physicists' and large Gauss-Hermite rules", {
  p <- gauss_hermite(7, "physicists")
  q <- gauss_hermite(7)
  expect_equal(p$nodes, q$nodes / sqrt(2), tolerance = 1e-15)
  expect_equal(p$weights, q$weights * sqrt(pi), tolerance = 1e-14)
  expect_lt(abs(sum(p$weights) - sqrt(pi)), 1e-14)
  # int exp(-x^2) x^2 dx = sqrt(pi) / 2.
  expect_lt(abs(sum(p$weights * p$nodes^2) - sqrt(pi) / 2), 1e-14)
  big <- gauss_hermite(1000)
  expect_false(is.unsorted(big$nodes, strictly = TRUE))
  expect_lt(abs(sum(big$weights) - 1), 1e-13)
  expect_lt(abs(sum(big$weights * big$nodes^2) - 1), 1e-13)
  expect_true(all(big$weights >= 0))
})

test_that("bad arguments are rejected with costbo_error_arg", {
  cls <- "costbo_error_arg"
  expect_error(sobol_points(-1, 2), class = cls)
  expect_error(sobol_points(2.5, 2), class = cls)
  expect_error(sobol_points(NA, 2), class = cls)
  expect_error(sobol_points("8", 2), class = cls)
  expect_error(sobol_points(c(4, 8), 2), class = cls)
  expect_error(sobol_points(8, 0), class = cls)
  expect_error(sobol_points(8, 21202), class = cls)
  expect_error(sobol_points(8, 1.5), class = cls)
  expect_error(sobol_points(8, 2, scramble = NA), class = cls)
  expect_error(sobol_points(8, 2, scramble = "yes"), class = cls)
  expect_error(sobol_points(8, 2, skip = -1), class = cls)
  expect_error(sobol_points(8, 2, skip = .Machine$integer.max), class = cls)
  expect_error(sobol_normal(8, 21202), class = cls)
  expect_error(sobol_normal(-8, 2), class = cls)
  expect_error(sobol_normal(8, 2, scramble = 1), class = cls)
  expect_error(gauss_hermite(0), class = cls)
  expect_error(gauss_hermite(1001), class = cls)
  expect_error(gauss_hermite(5.5), class = cls)
  expect_error(gauss_hermite(5, "engineers"), class = cls)
  err <- tryCatch(sobol_points(8, 0), error = identity)
  expect_match(conditionMessage(err), "`d`")
  expect_identical(err$call[[1]], quote(sobol_points))
})

test_that("internal Sobol draws equal sobol_points()'s and C refuses sizes outside its tables", {
  set.seed(4)
  a <- sobol_points(17, 3)
  set.seed(4)
  expect_identical(costbo:::sobol_unit(17, 3), a)
  set.seed(4)
  b <- sobol_normal(9, 2)
  set.seed(4)
  expect_identical(costbo:::sobol_unit(9, 2, normal = TRUE), b)
  big <- costbo:::sobol_max_dim() + 1L
  expect_error(costbo:::sobol_unit(5, big), "Sobol dimension outside",
               class = "costbo_error_c")
  expect_error(costbo:::sobol_run(-1L, 2L, FALSE, 0L, FALSE),
               "inconsistent Sobol sizes", class = "costbo_error_c")
  expect_error(costbo:::sobol_run(5L, 2L, FALSE, -3L, FALSE),
               "inconsistent Sobol sizes", class = "costbo_error_c")
  for (bad in list(NA, c(TRUE, TRUE), FALSE, 1:3)) {
    expect_error(costbo:::call_c(C_qmc_sobol, 5L, 2L, 0L, bad, FALSE),
                 "inconsistent Sobol sizes", class = "costbo_error_c")
  }
})

test_that("Gauss-Hermite weights far in the tails match 300-bit values down to the end of the double range", {
  skip_if_not_installed("Rmpfr")
  # w_i = n! / (n^2 He_{n-1}(x_i)^2) for the probabilists' rule, He by its
  # three-term recurrence in 300-bit arithmetic at the returned nodes
  ref_w <- function(n, x) {
    x <- Rmpfr::mpfr(x, 300)
    h0 <- Rmpfr::mpfr(rep(1, length(x)), 300)
    h1 <- x
    for (k in seq_len(n - 2L)) {
      h2 <- x * h1 - k * h0
      h0 <- h1
      h1 <- h2
    }
    Rmpfr::asNumeric(Rmpfr::factorialMpfr(n) /
                       (Rmpfr::mpfr(n, 300)^2 * h1^2))
  }
  tiny <- .Machine$double.xmin
  for (n in c(200L, 1000L)) {
    g <- gauss_hermite(n)
    # the outermost nodes, and those where the weights cross into the
    # subnormal range and underflow to 0
    j <- which(g$weights > 0)[1L]
    i <- unique(c(1:6, max(1L, j - 4L):(j + 12L), n %/% 2L))
    ref <- ref_w(n, g$nodes[i])
    w <- g$weights[i]
    normal <- ref >= tiny
    expect_lt(max(abs(w[normal] / ref[normal] - 1)), 1e-12)
    # subnormal weights to within two of their ulps (4.9e-324); below the
    # range, 0
    expect_true(all(abs(w[!normal] - ref[!normal]) <= 2 * 4.94e-324))
  }
  expect_identical(gauss_hermite(1000L)$weights[1L], 0)
})
