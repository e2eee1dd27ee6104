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
  ifelse(s > 0, s * (u * pnorm(u) + dnorm(u)), pmax(m - best, 0))
}

# Gauss-Hermite rule for E g(Z), Z ~ N(0, 1), by Golub-Welsch.
ref_gh <- function(n) {
  J <- matrix(0, n, n)
  if (n > 1) J[cbind(1:(n - 1), 2:n)] <- J[cbind(2:n, 1:(n - 1))] <-
    sqrt(1:(n - 1))
  e <- eigen(J, symmetric = TRUE)
  list(nodes = e$values, weights = e$vectors[1, ]^2)
}

# Exact two-step budgeted value Q_2(x | D) of every candidate x of a finite
# domain with an explicit Gaussian prior (mean mu, covariance S), noise
# variance `noise`, observations (xo = candidate indices, yo), known costs and
# a budget: Q1(x) + E_y[max_x2 Q1(x2 | D + (x, y))] with y from the
# posterior predictive distribution, by nested Gauss-Hermite quadrature.
ref_two_step_finite <- function(mu, S, noise, xo, yo, cost, budget,
                                n_gh = 80) {
  post <- function(mu, S, i, y) {
    k <- S[, i]
    v <- S[i, i] + noise
    list(mu = mu + k * (y - mu[i]) / v, S = S - outer(k, k) / v)
  }
  for (j in seq_along(xo)) {
    p <- post(mu, S, xo[j], yo[j])
    mu <- p$mu
    S <- p$S
  }
  best <- max(yo)
  q1 <- function(mu, S, best, rem) {
    if (rem <= 0) return(0 * mu)
    ref_ei(mu, sqrt(pmax(diag(S), 0)), best) * (cost <= rem)
  }
  gh <- ref_gh(n_gh)
  vapply(seq_along(mu), function(i) {
    sd_y <- sqrt(S[i, i] + noise)
    inner <- vapply(mu[i] + sd_y * gh$nodes, function(y) {
      p <- post(mu, S, i, y)
      max(q1(p$mu, p$S, max(best, y), budget - cost[i]))
    }, numeric(1))
    q1(mu, S, best, budget)[i] + sum(gh$weights * inner)
  }, numeric(1))
}

# Expected final best value of the EI-PU policy as bo_optimize() runs it on
# the Theorem 1 construction of Astudillo et al. (2021): f(0) = 0 observed,
# cheap points with f ~ N(0, eps^2) and cost eps, one point with
# f ~ N(0, 1) and cost 1 + delta = budget, all independent, no noise.
# EI-PU evaluates a cheap point while h(-b / eps) >= h(-b) / (1 + delta)
# (b the best value) and otherwise proposes the expensive point, which no
# longer fits, so the run ends; at most floor(budget / eps) cheap points fit.
# By the recursion V_k(b) = b if the run stops, else E V_{k-1}(max(b, eps Z)),
# on a grid of b with a fine midpoint rule in Z.
ref_theorem1_eipu <- function(eps, delta, n_grid = 4001, n_z = 4000) {
  h <- function(u) u * pnorm(u) + dnorm(u)
  k_max <- floor((1 + delta) / eps + 1e-12)
  b <- seq(0, 8 * eps, length.out = n_grid)
  go <- h(-b / eps) >= h(-b) / (1 + delta)
  z <- qnorm((seq_len(n_z) - 0.5) / n_z)
  V <- b
  for (k in seq_len(k_max)) {
    Vk <- vapply(seq_along(b), function(i) {
      if (!go[i]) return(b[i])
      mean(approx(b, V, pmin(pmax(b[i], eps * z), max(b)))$y)
    }, numeric(1))
    V <- Vk
  }
  V[1]
}

# CMDP rollout value of x (paper 001) by brute-force Monte Carlo: n paths of
# "x, then argmax EI per unit cost (h - 2 steps), then argmax EI", each
# outcome drawn from the posterior (the last one too) and conditioned on;
# the argmax is over the rows of `grid`; a path stops before the first step
# whose cumulative cost exceeds `remaining`. Returns the mean total
# improvement and its standard error. The grid is priced once per call.
ref_cmdp_rollout <- function(fit, x, h, best, cost, remaining, grid, n,
                             base = "eipu_then_ei") {
  price <- apply(grid, 1L, cost)
  path <- function(model, xc, b, spent, t) {
    p <- predict(model, matrix(xc, 1L))
    y <- stats::rnorm(1L, p$mean, p$sd)
    nb <- max(b, y)
    if (t == h) return(nb)
    m2 <- gp_condition(model, matrix(xc, 1L), y)
    pg <- predict(m2, grid)
    a <- ref_ei(pg$mean, pg$sd, nb)
    if (base == "eipu_then_ei" && t < h - 1) a <- a / price
    i <- which.max(a)
    xn <- grid[i, ]
    cn <- price[[i]]
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

# The multi-source kernel of Poloczek et al. (2017) in the user's units,
# from the coefficients of a gp_fit_miso() fit: Matern 5/2 truth kernel plus
# a bias kernel when both sources are the same cheap source.
ref_miso_kernel <- function(X1, s1, X2, s2, cf) {
  m52 <- function(A, B, ell, sf2) {
    D <- matrix(0, nrow(A), nrow(B))
    for (k in seq_len(ncol(A))) D <- D + outer(A[, k], B[, k], "-")^2 / ell[k]^2
    r <- sqrt(D)
    sf2 * (1 + sqrt(5) * r + 5 / 3 * r^2) * exp(-sqrt(5) * r)
  }
  K <- m52(X1, X2, cf$lengthscale, cf$outputscale)
  for (s in seq_along(cf$bias_outputscale)) {
    Kb <- m52(X1, X2, cf$bias_lengthscale[s, ], cf$bias_outputscale[s])
    K <- K + outer(s1 == s, s2 == s) * Kb
  }
  K
}

# Dense posterior mean and variance of a gp_fit_miso() fit at (Xn, sn),
# optionally with one more observation y at (xa, sa).
ref_miso_posterior <- function(fit, Xn, sn, xa = NULL, sa = NULL, y = NULL) {
  cf <- coef(fit)
  nv <- cf$noise + fit$hyp[fit$d + 5L] * fit$ysd^2
  X <- rbind(fit$X, xa)
  s <- c(fit$source, sa)
  yy <- c(fit$y, y)
  K <- ref_miso_kernel(X, s, X, s, cf) + diag(nv, nrow(X))
  ks <- ref_miso_kernel(X, s, Xn, sn, cf)
  A <- solve(K, ks)
  list(mean = cf$mean + drop(crossprod(A, yy - cf$mean)),
       var = diag(ref_miso_kernel(Xn, sn, Xn, sn, cf)) - colSums(ks * A))
}

# CMDP rollout value with h = 2 and the EI base policy by brute-force Monte
# Carlo, with every fantasy an observation: y1 ~ N(m(x), s(x)^2 + nugget)
# conditioned on by gp_condition(), the next point the argmax of EI over
# `grid`, y2 drawn the same way there; the value is max(best, y1, y2) -
# best. noisy = FALSE draws with the latent sd instead (the old rule).
# The conditioned posterior on the grid is computed once per call: its sd
# does not depend on y1 and its mean is affine in y1, so gp_condition() at
# y1 = m(x) and at m(x) + 1 gives it for every y1 (checked at a third y1).
ref_cmdp_noisy <- function(fit, x, best, grid, n, noisy = TRUE) {
  nug <- if (noisy) coef(fit)$noise + fit$hyp[fit$d + 4L] * fit$ysd^2 else 0
  p <- predict(fit, matrix(x, 1L))
  at <- function(y1) predict(gp_condition(fit, matrix(x, 1L), y1), grid)
  g0 <- at(p$mean)
  slope <- at(p$mean + 1)$mean - g0$mean
  g3 <- at(p$mean - 2.5)
  stopifnot(
    isTRUE(all.equal(g3$mean, g0$mean - 2.5 * slope, tolerance = 1e-8)),
    isTRUE(all.equal(g3$sd, g0$sd, tolerance = 1e-8)))
  v <- replicate(n, {
    y1 <- stats::rnorm(1L, p$mean, sqrt(p$sd^2 + nug))
    b1 <- max(best, y1)
    mg <- g0$mean + slope * (y1 - p$mean)
    i <- which.max(ref_ei(mg, g0$sd, b1))
    y2 <- stats::rnorm(1L, mg[i], sqrt(g0$sd[i]^2 + nug))
    max(b1, y2) - best
  })
  c(mean = mean(v), se = stats::sd(v) / sqrt(n))
}

# CMDP rollout with h = 2 and the EI base policy on a deterministic
# objective, per standard normal draw z (a vector), by its definition with
# latent fantasies: the first outcome y1 = m(x) + s(x) z is the value of f
# (s without the noise), conditioned on with the noise and jitter `nug` on
# the diagonal; the next point is the argmax over `grid` of EI in that
# state given the incumbent b1 = max(best, y1), and the second outcome's
# improvement is integrated in closed form, EI of f there; the value is
# b1 - best + that EI. The conditioned posterior on the grid is computed
# densely in R (ref_predict(), from the fit's coefficients): its sd does
# not depend on y1 and its mean is affine in y1, so two values of y1 give
# it for all.
ref_cmdp_latent2 <- function(fit, x, best, grid, z, nug) {
  cf <- coef(fit)
  post <- function(Xd, yd, Xn) {
    ref_predict(Xd, yd, Xn, fit$kernel, cf$lengthscale, cf$outputscale,
                nug, cf$mean)
  }
  p <- post(fit$X, fit$y, matrix(x))
  at <- function(y1) post(rbind(fit$X, x), c(fit$y, y1), grid)
  g0 <- at(p$mean)
  slope <- at(p$mean + 1)$mean - g0$mean
  vapply(z, function(zi) {
    y1 <- p$mean + p$sd * zi
    b1 <- max(best, y1)
    e <- ref_ei(g0$mean + slope * (y1 - p$mean), g0$sd, b1)
    b1 - best + max(e)
  }, 0)
}

# Knowledge gradient at x over the set A (rows, including x) by a
# Gauss-Hermite rule of n nodes (ref_gh()) over the fantasy outcome y = m(x)
# + sd z, conditioned on by gp_condition(): sd is that of the latent value
# (latent = TRUE) or of an observation (the nugget `nug` added).
ref_kg_gh <- function(fit, x, A, n, latent, nug) {
  gh <- ref_gh(n)
  p <- predict(fit, matrix(x, 1L))
  sd <- if (latent) p$sd else sqrt(p$sd^2 + nug)
  m0 <- max(predict(fit, A)$mean)
  g <- vapply(gh$nodes, function(z) {
    max(predict(gp_condition(fit, matrix(x, 1L), p$mean + sd * z), A)$mean)
  }, 0)
  sum(gh$weights * g) - m0
}

# Two-step rolling-horizon value of x (paper 004) by its definition: KG(x)
# plus alpha times the expectation, over the fantasy outcome at x (n nodes),
# of the largest KG among the candidates `cand` in the conditioned state,
# each over the set A = (inputs, candidates, x) by n_deep nodes.
ref_rh_two_step <- function(fit, x, cand, alpha, n, n_deep, latent, nug) {
  A <- rbind(fit$X, cand, x)
  gh <- ref_gh(n)
  p <- predict(fit, matrix(x, 1L))
  sd <- if (latent) p$sd else sqrt(p$sd^2 + nug)
  nxt <- vapply(gh$nodes, function(z) {
    f1 <- gp_condition(fit, matrix(x, 1L), p$mean + sd * z)
    max(apply(cand, 1L, function(c) ref_kg_gh(f1, c, A, n_deep, latent, nug)))
  }, 0)
  ref_kg_gh(fit, x, A, n, latent, nug) + alpha * sum(gh$weights * nxt)
}

# --- the extremes of the double range -----------------------------------------

# Evaluate `expr` with Rmpfr's exponent range widened to +-2^61 (so that
# exp(-u^2 / 2) is representable up to |u| ~ 2e9), restoring it after.
with_wide_mpfr <- function(expr) {
  old <- Rmpfr::.mpfr_erange(c("Emin", "Emax"))
  on.exit({
    Rmpfr::.mpfr_erange_set("Emin", old[["Emin"]])
    Rmpfr::.mpfr_erange_set("Emax", old[["Emax"]])
  })
  Rmpfr::.mpfr_erange_set("Emin", -2^61)
  Rmpfr::.mpfr_erange_set("Emax", 2^61)
  expr
}

# EI at (m, s, best), s > 0, and its log with the derivatives of both, as
# doubles rounded from exact values: +-Inf where the exact value is beyond
# the double range (0 where EI is below it). u = (m - best) / s is formed in
# 200-bit arithmetic; for |u| <= 1e9 everything is computed there; beyond,
# from the asymptotic series of Mills' ratio (relative error below 1e-30):
# for x = -u, Phi(u) / h(u) = x (1 + 2/x^2 - 6/x^4) and
# phi(u) / h(u) = x^2 (1 + 3/x^2 - 6/x^4) to that order, and
# log h(u) = log phi(x) - 2 log x + log(1 - 3/x^2 + 15/x^4).
ref_ei_extreme <- function(m, s, best) {
  with_wide_mpfr({
    u <- (Rmpfr::mpfr(m, 200) - best) / s
    un <- Rmpfr::asNumeric(u)
    if (abs(un) <= 1e9) {
      P <- Rmpfr::pnorm(u)
      p <- Rmpfr::dnorm(u)
      h <- u * P + p
      ei <- s * h
      out <- c(log_ei = Rmpfr::asNumeric(log(ei)),
               ei = Rmpfr::asNumeric(ei), d_mean = Rmpfr::asNumeric(P),
               d_sd = Rmpfr::asNumeric(p),
               dl_mean = Rmpfr::asNumeric(P / ei),
               dl_sd = Rmpfr::asNumeric(p / ei))
    } else if (un > 0) {
      # h(u) = u to far below an ulp
      ei <- s * u
      out <- c(log_ei = Rmpfr::asNumeric(log(ei)), ei = Rmpfr::asNumeric(ei),
               d_mean = 1, d_sd = 0, dl_mean = Rmpfr::asNumeric(1 / ei),
               dl_sd = 0)
    } else {
      x <- -un
      v <- 1 / x^2
      log_ei <- log(s) - x^2 / 2 - 0.5 * log(2 * pi) - 2 * log(x) +
        log1p(-3 * v + 15 * v^2)
      out <- c(log_ei = log_ei, ei = 0, d_mean = 0, d_sd = 0,
               dl_mean = x * (1 + 2 * v - 6 * v^2) / s,
               dl_sd = x^2 * (1 + 3 * v - 6 * v^2) / s)
    }
    out
  })
}

# The PBGI index g = m - s t, h(t) = lambda c / s, with its derivatives
# d_sd = phi(t) / Phi(t) and d_cost = -lambda / Phi(t), from the 200-bit
# root t (ref_h_inv_mpfr() from the start ref_h_inv(); t = r itself for
# r = lambda c / s >= 8, where h(t) = t to far below an ulp), rounded to
# doubles (+-Inf beyond the range).
ref_pbgi_extreme <- function(m, s, lambda, cost) {
  with_wide_mpfr({
    lc <- Rmpfr::mpfr(lambda, 200) * cost
    r <- lc / s
    if (r >= 8) {
      t <- r
    } else {
      y <- Rmpfr::asNumeric(log(r))
      t <- Rmpfr::mpfr(ref_h_inv_mpfr(y, ref_h_inv(y), prec = 200L), 200)
    }
    P <- Rmpfr::pnorm(t)
    c(value = Rmpfr::asNumeric(m - s * t),
      d_sd = Rmpfr::asNumeric(Rmpfr::dnorm(t) / P),
      d_cost = Rmpfr::asNumeric(-lambda / P))
  })
}
