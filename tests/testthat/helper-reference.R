# Independent reference computations in plain R, used by the tests.

# Unit-outputscale kernels of the scaled distance r.
ref_kernel <- function(kernel, r) {
  switch(kernel,
         matern52 = (1 + sqrt(5) * r + 5 / 3 * r^2) * exp(-sqrt(5) * r),
         matern32 = (1 + sqrt(3) * r) * exp(-sqrt(3) * r),
         se = exp(-r^2 / 2))
}

# Cross-covariance matrix between the rows of A and B (user units).
ref_cov <- function(A, B, kernel, lengthscale, outputscale) {
  A <- sweep(as.matrix(A), 2, lengthscale, "/")
  B <- sweep(as.matrix(B), 2, lengthscale, "/")
  D2 <- outer(rowSums(A^2), rowSums(B^2), "+") - 2 * A %*% t(B)
  outputscale * ref_kernel(kernel, sqrt(pmax(D2, 0)))
}

# Log marginal likelihood by dense solve() and determinant().
ref_loglik <- function(X, y, kernel, lengthscale, outputscale, noise, mean) {
  K <- ref_cov(X, X, kernel, lengthscale, outputscale) +
    diag(noise, nrow(as.matrix(X)))
  r <- y - mean
  -0.5 * sum(r * solve(K, r)) -
    0.5 * as.numeric(determinant(K, logarithm = TRUE)$modulus) -
    0.5 * length(y) * log(2 * pi)
}

# Textbook posterior mean and sd of the latent function.
ref_predict <- function(X, y, Xnew, kernel, lengthscale, outputscale, noise,
                        mean) {
  K <- ref_cov(X, X, kernel, lengthscale, outputscale) +
    diag(noise, nrow(as.matrix(X)))
  Ks <- ref_cov(X, Xnew, kernel, lengthscale, outputscale)
  m <- mean + drop(t(Ks) %*% solve(K, y - mean))
  v <- outputscale - colSums(Ks * solve(K, Ks))
  list(mean = m, sd = sqrt(pmax(v, 0)))
}

# Central finite differences of a scalar function.
ref_grad <- function(f, x, h = 1e-5) {
  vapply(seq_along(x), function(i) {
    e <- replace(numeric(length(x)), i, h)
    (f(x + e) - f(x - e)) / (2 * h)
  }, numeric(1))
}

# Relative difference, elementwise maximum.
rel_err <- function(a, b, floor = 1) max(abs(a - b) / pmax(abs(b), floor))

# Independent reference computations for the tests. Nothing here calls the
# package's C code.

# --- log h(u), h(u) = u Phi(u) + phi(u) --------------------------------------

# High precision (Rmpfr, 320 bits): no cancellation problem at any u we test.
ref_log_h_mpfr <- function(u, prec = 320L) {
  vapply(u, function(x) {
    x <- Rmpfr::mpfr(x, prec)
    Rmpfr::asNumeric(log(x * Rmpfr::pnorm(x) + Rmpfr::dnorm(x)))
  }, double(1))
}

# Without Rmpfr. For x = |u|, h(-x) = phi(x) q(x) and h(x) = x + phi(x) q(x)
# with q(x) = E[(Z - x)^+] / phi(x) = int_0^Inf w exp(-x w - w^2 / 2) dw, a
# positive integrand without cancellation. For x >= 8, q comes from the
# asymptotic series q(x) ~ sum_k (-1)^(k+1) (2k-1)!! / x^(2k), summed up to
# its smallest term (error below 1e-12 relative at x = 8, far less beyond).
ref_log_q <- function(x) {
  vapply(x, function(x) {
    if (x >= 8) {
      term <- 1 / x^2
      s <- term
      k <- 1
      repeat {
        nxt <- -term * (2 * k + 1) / x^2
        if (abs(nxt) >= abs(term)) break
        s <- s + nxt
        term <- nxt
        k <- k + 1
        if (abs(term) < 1e-20 * abs(s)) break
      }
      return(log(s))
    }
    if (x >= 1) {
      f <- function(v) v * exp(-v - v^2 / (2 * x^2))
      val <- stats::integrate(f, 0, Inf, rel.tol = 1e-13,
                              subdivisions = 500L)$value / x^2
    } else {
      f <- function(w) w * exp(-x * w - w^2 / 2)
      val <- stats::integrate(f, 0, Inf, rel.tol = 1e-13,
                              subdivisions = 500L)$value
    }
    log(val)
  }, double(1))
}

ref_log_h_series <- function(u) {
  x <- abs(u)
  lq <- ref_log_q(x)
  lphi <- -x^2 / 2 - 0.5 * log(2 * pi)
  out <- lphi + lq
  pos <- u > 0
  out[pos] <- log(u[pos] + exp(out[pos]))
  out
}

ref_log_h <- function(u) {
  if (requireNamespace("Rmpfr", quietly = TRUE)) ref_log_h_mpfr(u)
  else ref_log_h_series(u)
}

# --- the inverse of h ---------------------------------------------------------

# The t with log h(t) = y, by Newton's method on a reference log h, from a
# bracket found by bisection (so independent of the package's starting rules).
ref_h_inv <- function(y, log_h = ref_log_h_series) {
  vapply(y, function(y) {
    lo <- -1
    while (log_h(lo) > y) lo <- 2 * lo
    hi <- 1
    while (log_h(hi) < y) hi <- 2 * hi
    for (i in 1:60) {
      mid <- (lo + hi) / 2
      if (log_h(mid) < y) lo <- mid else hi <- mid
      if (hi - lo < 1e-3 * max(1, abs(mid))) break
    }
    t <- (lo + hi) / 2
    for (i in 1:8) {
      lh <- log_h(t)
      t <- t - (lh - y) / exp(stats::pnorm(t, log.p = TRUE) - lh)
    }
    t
  }, double(1))
}

# High-precision root of log h(t) = y: three Newton steps in 200-bit
# arithmetic from a start near the root (a double-precision estimate). The
# fixed point is the exact root whatever the start; a poor start leaves an
# error that fails the test rather than hiding one.
ref_h_inv_mpfr <- function(y, start, prec = 200L) {
  mapply(function(y, t) {
    y <- Rmpfr::mpfr(y, prec)
    t <- Rmpfr::mpfr(t, prec)
    for (i in 1:3) {
      h <- t * Rmpfr::pnorm(t) + Rmpfr::dnorm(t)
      t <- t - (log(h) - y) * h / Rmpfr::pnorm(t)
    }
    Rmpfr::asNumeric(t)
  }, y, start)
}

# --- Monte Carlo --------------------------------------------------------------

# Mean of a sample and its standard error.
mc_mean <- function(x) c(mean = mean(x), se = stats::sd(x) / sqrt(length(x)))

# |closed form - Monte Carlo| in units of the Monte Carlo standard error.
mc_z <- function(closed, draws) {
  est <- mc_mean(draws)
  abs(closed - est[["mean"]]) / est[["se"]]
}

# --- finite differences -------------------------------------------------------

# Central difference of f (a function of a named list of scalars) in `arg`.
fd <- function(f, args, arg, rel = 1e-5) {
  x <- args[[arg]]
  h <- rel * max(abs(x), 1)
  up <- args
  dn <- args
  up[[arg]] <- x + h
  dn[[arg]] <- x - h
  (f(up) - f(dn)) / (up[[arg]] - dn[[arg]])
}

# --- naive expected improvement -----------------------------------------------

# EI as the reference implementations compute it, Phi(u) = (1 + erf(u/sqrt 2))/2
# in double precision: erf rounds to -1 below u ~ -8.3, so EI becomes s phi(u).
naive_ei <- function(m, s, best) {
  u <- (m - best) / s
  erf <- 2 * stats::pnorm(u) - 1
  s * (u * 0.5 * (1 + erf) + stats::dnorm(u))
}

# Expected improvement E[(f - best)^+], f ~ N(m, s^2), textbook formula.
ref_ei <- function(m, s, best) {
  u <- (m - best) / s
  ifelse(s > 0, s * (u * stats::pnorm(u) + stats::dnorm(u)), pmax(m - best, 0))
}

# CMDP rollout value of x (paper 001) by brute-force Monte Carlo: n paths of
# "x, then argmax EI per unit cost (h - 2 steps), then argmax EI", each
# outcome drawn from the posterior (the last one too) and conditioned on;
# the argmax is over the rows of `grid`; a path stops before the first step
# whose cumulative cost exceeds `remaining`. Returns the mean total
# improvement and its standard error.
ref_cmdp_rollout <- function(fit, x, h, best, cost, remaining, grid, n,
                             base = "eipu_then_ei") {
  path <- function(model, xc, b, spent, t) {
    p <- predict(model, matrix(xc, 1L))
    y <- stats::rnorm(1L, p$mean, p$sd)
    nb <- max(b, y)
    if (t == h) return(nb)
    m2 <- gp_condition(model, matrix(xc, 1L), y)
    pg <- predict(m2, grid)
    a <- ref_ei(pg$mean, pg$sd, nb)
    if (base == "eipu_then_ei" && t < h - 1) a <- a / apply(grid, 1L, cost)
    xn <- grid[which.max(a), ]
    cn <- cost(xn)
    if (spent + cn > remaining) return(nb)
    path(m2, xn, nb, spent + cn, t + 1L)
  }
  if (cost(x) > remaining) return(c(mean = 0, se = 0))
  v <- replicate(n, path(fit, x, best, cost(x), 1L) - best)
  c(mean = mean(v), se = stats::sd(v) / sqrt(n))
}

# Knowledge gradient at x by brute-force Monte Carlo: draw the observation
# y ~ N(m(x), s(x)^2 + noise), condition, and average the gain of the
# maximum of the posterior mean over the set A (rows, including x).
ref_kg <- function(fit, x, A, noise, n) {
  p <- predict(fit, matrix(x, 1L))
  m0 <- max(predict(fit, A)$mean)
  g <- replicate(n, {
    y <- stats::rnorm(1L, p$mean, sqrt(p$sd^2 + noise))
    max(predict(gp_condition(fit, matrix(x, 1L), y), A)$mean) - m0
  })
  c(mean = mean(g), se = stats::sd(g) / sqrt(n))
}
