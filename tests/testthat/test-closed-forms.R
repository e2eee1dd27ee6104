# Closed-form acquisitions: acq_closed_form(), acq_pandora_stop() and the C
# core behind them (src/acq.c).

acq <- acq_closed_form

# --- log h and log EI in the tails --------------------------------------------

test_that("log h matches the series/integral reference from u = -1e4 to 40", {
  u <- c(-1e4, -1000, -100, -40, -38.5, -30, -20, -12, -10, -9, -8, -7,
         -5, -3, -2.5, -2, -1.999, -1.5, -1, -0.5, 0, 0.5, 1, 2, 5, 10, 40)
  got <- costbo:::acq_log_h(u)
  ref <- ref_log_h_series(u)
  expect_true(all(is.finite(got)))
  # relative error of h itself, i.e. absolute error of log h
  # absolute error of log h = relative error of h; log h itself carries a
  # rounding error of eps |log h|
  tol <- 8 * .Machine$double.eps * pmax(1, abs(ref))
  expect_true(all(abs(got - ref) <= pmax(tol, 1e-12)))
  expect_lt(max(abs(got - ref) / pmax(1, abs(ref))), 1e-13)
})

test_that("log h and log EI match 320-bit references to a few ulps", {
  skip_if_not_installed("Rmpfr")
  u <- c(-1e4, -1000, -100, seq(-40, 40, by = 1.25), -2 - 1e-9, -2 + 1e-9,
         -1.5, -0.5, 0.5)
  ref <- ref_log_h_mpfr(u)
  tol <- 4 * .Machine$double.eps * pmax(1, abs(ref))
  expect_true(all(abs(costbo:::acq_log_h(u) - ref) <= tol))
  m <- u * 0.3 + 1
  lei <- acq("log_ei", m, 0.3, best = 1)
  expect_true(all(abs(lei - (log(0.3) + ref)) <= 2 * tol))
  # EI itself wherever it is a normal double
  ok <- log(0.3) + ref > log(.Machine$double.xmin)
  ei <- acq("ei", m[ok], 0.3, best = 1)
  expect_lt(max(abs(ei / exp(log(0.3) + ref[ok]) - 1)), 1e-12)
})

test_that("log EI is finite for every finite input", {
  set.seed(11)
  n <- 2000
  m <- runif(n, -1e3, 1e3)
  s <- 10^runif(n, -10, 3)
  b <- runif(n, -1e3, 1e3)
  expect_true(all(is.finite(acq("log_ei", m, s, best = b))))
  expect_true(all(is.finite(acq("log_ei", -1, 1e-4, best = 0))))   # u = -1e4
  expect_equal(acq("log_ei", -1e5, 1, best = 0),
               ref_log_h_series(-1e5), tolerance = 1e-14)
})

test_that("s = 0 is handled exactly", {
  expect_identical(acq("ei", c(2, -1, 0), 0, best = 0), c(2, 0, 0))
  expect_identical(acq("log_ei", c(2, -1), 0, best = 0), c(log(2), -Inf))
  g <- acq("ei", c(2, -1, 0), 0, best = 0, grad = TRUE)
  expect_equal(g$d_mean, c(1, 0, 0.5))
  expect_equal(g$d_sd, c(0, 0, dnorm(0)))
  # limits from s > 0
  expect_equal(acq("ei", c(2, 0), 1e-300, best = 0), c(2, 1e-300 * dnorm(0)))
  expect_equal(acq("pbgi", 1, 0, cost = 2, lambda = 0.25), 0.5)
})

# --- Monte Carlo checks of the definitions ------------------------------------

test_that("EI, Q1, EI-PU and EI-PU-CC equal Monte Carlo integrals", {
  set.seed(20240601)
  n <- 1e6
  z <- rnorm(n)
  w <- rnorm(n)
  cases <- data.frame(
    m = c(-1, 0.3, 0.3, -1, 1.5, 0.2),
    s = c(0.5, 2, 0.5, 2, 1, 0.1),
    mc = c(-0.5, 1, 0.3, 1, -1, 0),
    sc = c(0.3, 1, 0.8, 0.3, 1, 0.5),
    R = c(1, 3, 0.8, 5, 0.5, 1),
    nu = c(0.3, 1, 0.6, 0, 0.9, 0.5)
  )
  cases$best <- 0.2
  zs <- numeric(0)
  for (i in seq_len(nrow(cases))) {
    k <- cases[i, ]
    imp <- pmax(k$m + k$s * z - k$best, 0)
    cst <- exp(k$mc + k$sc * w)
    zs <- c(zs,
      ei = mc_z(acq("ei", k$m, k$s, best = k$best), imp),
      q1 = mc_z(acq("q1", k$m, k$s, best = k$best, log_cost_mean = k$mc,
                    log_cost_sd = k$sc, remaining = k$R), imp * (cst <= k$R)),
      pu = mc_z(acq("ei_pu", k$m, k$s, best = k$best, log_cost_mean = k$mc,
                    log_cost_sd = k$sc), imp / cst),
      pucc = mc_z(acq("ei_pu_cc", k$m, k$s, best = k$best,
                      log_cost_mean = k$mc, log_cost_sd = k$sc, nu = k$nu),
                  imp / cst^k$nu)
    )
  }
  expect_lt(max(zs), 4.5)
})

test_that("known-cost forms equal their definitions", {
  set.seed(5)
  m <- rnorm(20)
  s <- runif(20, 0.1, 2)
  cst <- runif(20, 0.5, 5)
  ei <- acq("ei", m, s, best = 0.1)
  expect_equal(acq("ei_pu_cc", m, s, best = 0.1, cost = cst, nu = 0.4),
               ei / cst^0.4, tolerance = 1e-14)
  expect_equal(acq("ei_pu", m, s, best = 0.1, cost = cst), ei / cst,
               tolerance = 1e-14)
  expect_equal(acq("q1", m, s, best = 0.1, cost = cst, remaining = 2),
               ei * (cst <= 2), tolerance = 1e-14)
  expect_identical(acq("q1", m, s, best = 0.1, cost = 2, remaining = 2),
                   acq("ei", m, s, best = 0.1))
  expect_identical(acq("q1", m[1:2], s[1:2], best = 0.1, log_cost_mean = 0,
                       log_cost_sd = 1, remaining = c(0, -1)),
                   c(0, 0))
  # sc = 0 is a known cost exp(mc)
  expect_identical(acq("q1", 0, 1, best = 0, log_cost_mean = log(c(1, 3)),
                       log_cost_sd = 0, remaining = 2),
                   acq("ei", 0, 1, best = 0) * c(1, 0))
  expect_equal(acq("ei_pu_cc", m, s, best = 0.1, log_cost_mean = log(cst),
                   log_cost_sd = 0, nu = 0.4), ei / cst^0.4,
               tolerance = 1e-14)
  expect_equal(acq("ucb", m, s, beta = 2), m + 2 * s)
})

test_that("the PBGI index solves EI(g) = lambda E[c] (Monte Carlo)", {
  set.seed(77)
  n <- 1e6
  z <- rnorm(n)
  w <- rnorm(n)
  zs <- numeric(0)
  for (lam in c(1e-3, 0.05, 0.5)) {
    for (s in c(0.3, 2)) {
      m <- 0.4
      g <- acq("pbgi", m, s, cost = 1.5, lambda = lam)
      zs <- c(zs, mc_z(lam * 1.5, pmax(m + s * z - g, 0)))
      gu <- acq("pbgi", m, s, log_cost_mean = 0.2, log_cost_sd = 0.6,
                lambda = lam)
      # E[(f - g)^+ - lambda c] = 0 with c lognormal
      zs <- c(zs, mc_z(0, pmax(m + s * z - gu, 0) - lam *
                         exp(0.2 + 0.6 * w)))
    }
  }
  expect_lt(max(zs), 4.5)
})

# --- the PBGI solver ----------------------------------------------------------

test_that("PBGI solves its equation to rounding level in a few steps", {
  y <- c(log(10^seq(-300, 300, by = 5)), seq(-10, 4, by = 0.01))
  r <- costbo:::acq_h_inv(y)
  expect_true(all(is.finite(r$t)))
  expect_lte(max(r$iter), 2L)
  # residual of log h(t) = y, i.e. relative residual of h(t) = lambda c / s:
  # t carries a rounding error of ~eps |t|, which moves h by ~eps t^2
  res <- abs(ref_log_h_series(r$t) - y)
  expect_true(all(res <= 8 * .Machine$double.eps * (1 + r$t^2) + 2e-14))
  mid <- abs(r$t) < 3
  expect_lt(max(res[mid]), 1e-14)
  # at the index itself: EI(m, s; g) = lambda c, relative 1e-14
  lam <- 10^seq(-4, 1, by = 0.25)
  g <- acq("pbgi", 1.3, 0.7, cost = 2, lambda = lam)
  ei <- acq("ei", 1.3, 0.7, best = g)
  expect_lt(max(abs(ei / (lam * 2) - 1)), 1e-13)
})

test_that("PBGI index matches high-precision roots for lambda in 1e-12..1e4", {
  lam <- 10^seq(-12, 4, by = 0.25)
  g <- acq("pbgi", 0, 1, cost = 1, lambda = lam)
  # Rmpfr-free reference: Newton on the series/integral log h
  t_ref <- ref_h_inv(log(lam))
  expect_lt(max(abs(g + t_ref) / pmax(abs(t_ref), 1)), 1e-12)
  # the extremes of the double range of lambda c / s
  y <- log(c(1e-300, 1e-200, 1e200, 1e300))
  expect_equal(costbo:::acq_h_inv(y)$t, ref_h_inv(y), tolerance = 1e-13)
})

test_that("PBGI index matches 320-bit roots", {
  skip_if_not_installed("Rmpfr")
  lam <- 10^seq(-12, 4, by = 1)
  g <- acq("pbgi", 0, 1, cost = 1, lambda = lam)
  y <- c(log(lam), log(c(1e-300, 1e-100, 1e100, 1e300)))
  t <- costbo:::acq_h_inv(y)$t
  t_ref <- ref_h_inv_mpfr(y, t)
  expect_lt(max(abs(t - t_ref) / pmax(abs(t_ref), 1)), 8 * .Machine$double.eps)
  expect_lt(max(abs(g + t_ref[seq_along(lam)]) /
                  pmax(abs(t_ref[seq_along(lam)]), 1)),
            8 * .Machine$double.eps)
})

test_that("PBGI roots are within 4 ulps of 200-bit roots from 1e-300 to 1e6", {
  skip_if_not_installed("Rmpfr")
  # r = lambda c / s over the whole range, densely where the solver switches
  # starting rules (t = -30, -3, 0, 3 and r = 8)
  lh <- function(t) ref_log_h_mpfr(t)
  edges <- c(lh(c(-30, -3, 0, 3)), log(8))
  y <- c(log(10^seq(-300, 6, by = 2)), seq(-9, 3, by = 0.15),
         outer(edges, c(-1e-9, 0, 1e-9), "+"))
  r <- costbo:::acq_h_inv(y)
  t_ref <- ref_h_inv_mpfr(y, r$t)
  err <- abs(r$t - t_ref) / pmax(abs(t_ref), 1)
  expect_lt(max(err), 4 * .Machine$double.eps)
  # one or two evaluations of h (none for r >= 8)
  expect_lte(max(r$iter), 2L)
  expect_identical(r$iter[exp(y) >= 8], rep(0L, sum(exp(y) >= 8)))
  # the index itself: m = 0, s = 1, c = r gives g = -t
  keep <- exp(y) < 8
  g <- acq("pbgi", 0, 1, cost = exp(y[keep]), lambda = 1)
  expect_lt(max(abs(g + t_ref[keep]) / pmax(abs(t_ref[keep]), 1)),
            4 * .Machine$double.eps)
})

test_that("PBGI derivatives match finite differences in every solver region", {
  # t about -35, -21, -3.7, -0.9, 0.3, 1.9, 4 and r = 20 (no iteration)
  for (r in c(1e-270, 1e-100, 1e-5, 0.1, 0.6, 2, 4, 20)) {
    p <- list(mean = 0.3, sd = 0.8, cost = r * 0.8 / 2)
    f <- function(q) acq("pbgi", q$mean, q$sd, cost = q$cost, lambda = 2)
    g <- acq("pbgi", p$mean, p$sd, cost = p$cost, lambda = 2, grad = TRUE)
    t <- (p$mean - g$value) / p$sd
    lab <- sprintf("r = %g", r)
    expect_equal(g$d_sd, fd(f, p, "sd"), tolerance = 1e-6,
                 label = lab)
    # the cost derivative: relative steps in the cost
    dc <- (f(modifyList(p, list(cost = p$cost * (1 + 1e-6)))) -
           f(modifyList(p, list(cost = p$cost * (1 - 1e-6))))) /
      (2e-6 * p$cost)
    expect_equal(g$d_cost, dc, tolerance = 1e-6, label = lab)
    # and Prop. 3 at the returned t (log scale: Phi(t) underflows far left)
    expect_equal(log(g$d_sd), dnorm(t, log = TRUE) - pnorm(t, log.p = TRUE),
                 tolerance = 1e-9, label = lab)
  }
})

test_that("PBGI handles lambda c / s beyond the double range", {
  # lambda c / s = 1e310: g = m - lambda c exactly
  expect_identical(acq("pbgi", 1, 1e-306, cost = 1, lambda = 1e4), 1 - 1e4)
  g <- acq("pbgi", 1, 1e-306, cost = 1, lambda = 1e4, grad = TRUE)
  expect_identical(unlist(g[1, ]),
                   c(value = 1 - 1e4, d_mean = 1, d_sd = 0, d_cost = -1e4))
  # lambda c / s = 1e-320: deep in the lower tail, still finite
  g <- acq("pbgi", 0, 1e300, log_cost_mean = -50, log_cost_sd = 0,
           lambda = 1e-12)
  expect_true(is.finite(g) && g > 1e301)
  # t = (m - g) / s is the root for y = log(lambda c / s)
  y <- log(1e-12) - 50 - log(1e300)
  expect_equal(-g / 1e300, ref_h_inv(y), tolerance = 1e-14)
})

# --- the far tail, where the reference implementations fail -------------------

test_that("cost-aware forms are exact at u = -9, -12, where naive EI is not", {
  for (u in c(-9, -12)) {
    s <- 0.5
    m <- u * s
    lei <- log(s) + ref_log_h(u)
    ei_exact <- exp(lei)
    mc <- 0.3
    sc <- 0.8
    nu <- 0.6
    pu <- exp(lei - mc + sc^2 / 2)
    pucc <- exp(lei - nu * mc + nu^2 * sc^2 / 2)
    q1 <- exp(lei + pnorm((log(2) - mc) / sc, log.p = TRUE))
    expect_equal(acq("ei", m, s, best = 0), ei_exact, tolerance = 1e-12)
    expect_equal(acq("ei_pu", m, s, best = 0, log_cost_mean = mc,
                     log_cost_sd = sc), pu, tolerance = 1e-12)
    expect_equal(acq("ei_pu_cc", m, s, best = 0, log_cost_mean = mc,
                     log_cost_sd = sc, nu = nu), pucc, tolerance = 1e-12)
    expect_equal(acq("q1", m, s, best = 0, log_cost_mean = mc,
                     log_cost_sd = sc, remaining = 2), q1, tolerance = 1e-12)
    # the naive formula is off by two orders of magnitude
    ratio <- naive_ei(m, s, 0) / ei_exact
    expect_gt(ratio, if (u == -9) 80 else 140)
  }
  expect_equal(naive_ei(-9, 1, 0) / exp(ref_log_h(-9)), 84, tolerance = 0.01)
})

test_that("at u = -40 values are positive and finite", {
  lei <- ref_log_h(-40)
  expect_identical(naive_ei(-40, 1, 0), 0)
  expect_equal(acq("log_ei", -40, 1, best = 0), lei, tolerance = 1e-14)
  expect_equal(acq("log_q1", -40, 1, best = 0, log_cost_mean = 0,
                   log_cost_sd = 1, remaining = 2),
               lei + pnorm(log(2), log.p = TRUE), tolerance = 1e-14)
  expect_equal(acq("log_ei_pu", -40, 1, best = 0, log_cost_mean = 0.5,
                   log_cost_sd = 1), lei - 0.5 + 0.5, tolerance = 1e-14)
  expect_equal(acq("log_ei_pu_cc", -40, 1, best = 0, cost = 3, nu = 0.5),
               lei - 0.5 * log(3), tolerance = 1e-14)
  # EI (~1e-351) is below the double range, EI / c is not for c = e^-100
  v <- acq("ei_pu", -40, 1, best = 0, log_cost_mean = -100, log_cost_sd = 1)
  expect_gt(v, 0)
  expect_equal(v, exp(lei + 100.5), tolerance = 1e-11)
  g <- acq("ei_pu", -40, 1, best = 0, log_cost_mean = -100, log_cost_sd = 1,
           grad = TRUE)
  expect_true(all(is.finite(unlist(g))) && g$d_mean > 0 && g$d_sd > 0)
})

# --- partial derivatives ------------------------------------------------------

test_that("every partial derivative equals a central finite difference", {
  pts <- list(
    list(mean = 0.3, sd = 0.8, best = 0.5, lcm = 0.4, lcs = 0.7, cost = 2.5,
         remaining = 3, nu = 0.6, lambda = 0.05, beta = 1.5),
    list(mean = -2, sd = 0.3, best = 1, lcm = -1, lcs = 0.2, cost = 0.4,
         remaining = 0.5, nu = 1, lambda = 1e-6, beta = 0),
    list(mean = 4, sd = 2, best = 1, lcm = 2, lcs = 1.5, cost = 7,
         remaining = 20, nu = 0.1, lambda = 2, beta = 3)
  )
  specs <- list(
    list(type = "ei", cost = "none"), list(type = "log_ei", cost = "none"),
    list(type = "ucb", cost = "none"),
    list(type = "q1", cost = "unknown"),
    list(type = "log_q1", cost = "unknown"),
    list(type = "q1", cost = "known"),
    list(type = "ei_pu", cost = "unknown"),
    list(type = "ei_pu", cost = "known"),
    list(type = "log_ei_pu", cost = "unknown"),
    list(type = "ei_pu_cc", cost = "unknown"),
    list(type = "ei_pu_cc", cost = "known"),
    list(type = "log_ei_pu_cc", cost = "known"),
    list(type = "pbgi", cost = "known"), list(type = "pbgi", cost = "unknown")
  )
  call_acq <- function(spec, p, grad = FALSE) {
    a <- list(type = spec$type, mean = p$mean, sd = p$sd, grad = grad)
    if (!spec$type %in% c("ucb", "pbgi")) a$best <- p$best
    if (spec$cost == "known") a$cost <- p$cost
    if (spec$cost == "unknown") {
      a$log_cost_mean <- p$lcm
      a$log_cost_sd <- p$lcs
    }
    if (spec$type %in% c("q1", "log_q1")) a$remaining <- p$remaining
    if (spec$type %in% c("ei_pu_cc", "log_ei_pu_cc")) a$nu <- p$nu
    if (spec$type == "pbgi") a$lambda <- p$lambda
    if (spec$type == "ucb") a$beta <- p$beta
    do.call(acq_closed_form, a)
  }
  col <- c(mean = "d_mean", sd = "d_sd", lcm = "d_log_cost_mean",
           lcs = "d_log_cost_sd", cost = "d_cost")
  n_checked <- 0
  for (p in pts) {
    for (spec in specs) {
      g <- call_acq(spec, p, grad = TRUE)
      vars <- c("mean", "sd", switch(spec$cost, none = NULL,
                                     unknown = c("lcm", "lcs"),
                                     known = "cost"))
      for (v in vars) {
        num <- fd(function(q) call_acq(spec, q), p, v)
        ana <- g[[col[[v]]]]
        expect_equal(ana, num, tolerance = 1e-5,
                     label = sprintf("%s (%s cost) d/d%s at mean %g",
                                     spec$type, spec$cost, v, p$mean))
        n_checked <- n_checked + 1
      }
    }
  }
  expect_gt(n_checked, 100)
})

test_that("log-scale derivatives stay accurate far in the tail", {
  for (u in c(-9, -30, -100)) {
    p <- list(mean = u * 0.5, sd = 0.5)
    f <- function(q) acq("log_ei", q$mean, q$sd, best = 0)
    g <- acq("log_ei", p$mean, p$sd, best = 0, grad = TRUE)
    expect_equal(g$d_mean, fd(f, p, "mean", rel = 1e-7), tolerance = 1e-5)
    expect_equal(g$d_sd, fd(f, p, "sd", rel = 1e-7), tolerance = 1e-5)
  }
  # PBGI far in both directions of lambda
  for (lam in c(1e-12, 1e4)) {
    p <- list(mean = 0.2, sd = 0.9)
    f <- function(q) acq("pbgi", q$mean, q$sd, cost = 1.1, lambda = lam)
    g <- acq("pbgi", p$mean, p$sd, cost = 1.1, lambda = lam, grad = TRUE)
    expect_equal(g$d_sd, fd(f, p, "sd"), tolerance = 1e-5)
    expect_equal(g$d_cost, -lam / pnorm((p$mean - g$value) / p$sd),
                 tolerance = 1e-10)
  }
})

test_that("PBGI gradient follows Prop. 3 of the PBGI paper", {
  m <- 0.1
  s <- 1.7
  lam <- 0.03
  mc <- 0.5
  sc <- 0.4
  g <- acq("pbgi", m, s, log_cost_mean = mc, log_cost_sd = sc, lambda = lam,
           grad = TRUE)
  t <- (m - g$value) / s
  ec <- exp(mc + sc^2 / 2)
  expect_equal(g$d_mean, 1)
  expect_equal(g$d_sd, dnorm(t) / pnorm(t), tolerance = 1e-12)
  expect_equal(g$d_log_cost_mean, -lam * ec / pnorm(t), tolerance = 1e-12)
  expect_equal(g$d_log_cost_sd, -lam * ec * sc / pnorm(t), tolerance = 1e-12)
})

# --- robustness over a wide grid ----------------------------------------------

test_that("no NaN, Inf or negative values over a wide random grid", {
  set.seed(3)
  n <- 5000
  m <- runif(n, -100, 100)
  s <- 10^runif(n, -8, 2)
  b <- runif(n, -100, 100)
  mc <- runif(n, -20, 20)
  sc <- runif(n, 0, 3)
  cst <- 10^runif(n, -3, 3)
  R <- runif(n, -5, 100)
  nu <- runif(n)
  lam <- 10^runif(n, -12, 4)
  fin <- function(x) all(is.finite(unlist(x)))
  for (type in c("ei", "q1", "ei_pu", "ei_pu_cc")) {
    for (known in c(TRUE, FALSE)) {
      if (type == "ei" && !known) next
      a <- list(type = type, mean = m, sd = s, best = b, grad = TRUE)
      if (type != "ei") {
        if (known) a$cost <- cst else {
          a$log_cost_mean <- mc
          a$log_cost_sd <- sc
        }
      }
      if (type == "q1") a$remaining <- R
      if (type == "ei_pu_cc") a$nu <- nu
      out <- do.call(acq_closed_form, a)
      expect_true(fin(out), label = type)
      expect_true(all(out$value >= 0 & out$d_sd >= 0 & out$d_mean >= 0),
                  label = type)
      a$type <- paste0("log_", type)
      lo <- do.call(acq_closed_form, a)
      expect_true(all(!is.na(unlist(lo))), label = a$type)
      expect_true(all(is.finite(lo$value[out$value > 0])), label = a$type)
      expect_true(all(lo$value < Inf), label = a$type)
    }
  }
  pk <- acq("pbgi", m, s, cost = cst, lambda = lam, grad = TRUE)
  pu <- acq("pbgi", m, s, log_cost_mean = mc, log_cost_sd = sc, lambda = lam,
            grad = TRUE)
  expect_true(fin(pk) && fin(pu))
  expect_true(all(pk$d_sd >= 0 & pk$d_cost < 0 & pu$d_log_cost_mean < 0))
  # the index is above the mean exactly when lambda c < s phi(0)
  expect_identical(pk$value > m, lam * cst < s * dnorm(0))
  expect_true(all(is.finite(acq("log_ei", m, s, best = b))))
})

# --- the extremes of the double range ------------------------------------------

# The outcome of one call: the result, or the costbo_error_arg it signals
# (any other error fails the test).
acq_or_refusal <- function(...) {
  tryCatch(acq(...), costbo_error_arg = function(e) e)
}

# What is wrong with the outcome `r` of a call (character(0) if nothing):
# `ref` holds exact values rounded to doubles (+-Inf beyond the range), the
# result's columns named as in `ref`, compared to relative tolerances
# `tol`; where one is beyond the range, `r` must be a refusal naming
# `args` and saying so.
acq_extreme_problems <- function(r, ref, tol, args, label) {
  if (!all(is.finite(ref))) {
    ok <- inherits(r, "costbo_error_arg") && identical(r$arg, args) &&
      grepl("within the double range", conditionMessage(r), fixed = TRUE)
    return(if (ok) character(0) else paste(label, ": not refused"))
  }
  if (inherits(r, "error")) {
    return(paste(label, ": refused:", conditionMessage(r)))
  }
  got <- if (is.data.frame(r)) unlist(r[1L, names(ref)]) else
    stats::setNames(r, names(ref))
  bad <- !is.finite(got) |
    abs(got - ref) > tol * pmax(abs(ref), .Machine$double.xmin)
  if (any(bad)) {
    sprintf("%s: %s = %.17g, not %.17g", label, names(ref)[bad], got[bad],
            ref[bad])
  } else character(0)
}

test_that("EI and log EI at the extremes are exact where representable, refused beyond", {
  skip_if_not_installed("Rmpfr")
  ms <- c(1.797e308, -1.797e308, 1e300, -1e154, -1, 0, 5e-324)
  ss <- c(1.797e308, 1e300, 1, 1e-300, 5e-324)
  bs <- c(1.797e308, -1.797e308, -1e300, 0, 1)
  g <- expand.grid(m = ms, s = ss, b = bs)
  problems <- character(0)
  refused <- 0L
  for (i in seq_len(nrow(g))) {
    m <- g$m[i]
    s <- g$s[i]
    b <- g$b[i]
    ref <- ref_ei_extreme(m, s, b)
    lab <- sprintf("m = %g, s = %g, best = %g", m, s, b)
    # EI with its derivatives Phi(u), phi(u) (0 where they are below the
    # range: EI of 1e-400 is 0); log EI with Phi(u) / EI and phi(u) / EI,
    # to a few ulps of log EI (the rounding of u^2 / 2)
    cases <- list(
      list("ei", FALSE, ref["ei"] , 1e-12),
      list("ei", TRUE, c(value = ref[["ei"]], ref[c("d_mean", "d_sd")]),
           1e-12),
      list("log_ei", FALSE, ref["log_ei"], 1e-13),
      list("log_ei", TRUE, c(value = ref[["log_ei"]],
                              d_mean = ref[["dl_mean"]],
                              d_sd = ref[["dl_sd"]]), 1e-11))
    for (cs in cases) {
      r <- acq_or_refusal(cs[[1L]], m, s, best = b, grad = cs[[2L]])
      refused <- refused + inherits(r, "error")
      problems <- c(problems, acq_extreme_problems(
        r, cs[[3L]], cs[[4L]], c("mean", "sd", "best"),
        paste(cs[[1L]], if (cs[[2L]]) "grad", lab)))
    }
  }
  expect_identical(problems, character(0))
  # both outcomes occur: the grid reaches beyond the range and stays in it
  expect_gt(refused, 50L)
  expect_lt(refused, 4L * nrow(g) - 200L)
  # examples: m - best overflows while EI does not, or its log does not
  expect_equal(acq("ei", -1.797e308, 1.797e308, best = 1.797e308),
               1.797e308 * (-2 * pnorm(-2) + dnorm(-2)), tolerance = 1e-12)
  expect_equal(acq("log_ei", 1.797e308, 1, best = -1.797e308),
               log(1.797e308) + log(2), tolerance = 1e-15)
})

test_that("UCB and the PBGI index at the extremes are exact where representable, refused beyond", {
  skip_if_not_installed("Rmpfr")
  ms <- c(1.797e308, -1.797e308, 0, 5e-324)
  ss <- c(1.797e308, 1e300, 1, 1e-300, 5e-324)
  problems <- character(0)
  for (m in ms) for (s in ss) for (beta in c(0, 2, 1e300)) {
    ref <- c(value = Rmpfr::asNumeric(Rmpfr::mpfr(m, 200) +
                                        Rmpfr::mpfr(beta, 200) * s),
             d_mean = 1, d_sd = beta)
    r <- acq_or_refusal("ucb", m, s, beta = beta, grad = TRUE)
    problems <- c(problems, acq_extreme_problems(
      r, ref, 1e-15, c("mean", "sd", "beta"),
      sprintf("ucb m = %g, s = %g, beta = %g", m, s, beta)))
  }
  refused <- 0L
  for (m in ms) for (s in ss) for (lambda in c(1e-300, 0.1, 1e300)) {
    ref <- ref_pbgi_extreme(m, s, lambda, 1)
    r <- acq_or_refusal("pbgi", m, s, cost = 1, lambda = lambda, grad = TRUE)
    refused <- refused + inherits(r, "error")
    # the index to a few ulps of the larger of |m| and s |t|
    tol <- if (all(is.finite(ref))) {
      t <- (m - ref[["value"]]) / s
      c(8 * .Machine$double.eps * (abs(m) + abs(s * t)) /
          max(abs(ref[["value"]]), .Machine$double.xmin), 1e-12, 1e-12)
    } else 0
    problems <- c(problems, acq_extreme_problems(
      r, ref, tol, c("mean", "sd", "cost", "lambda"),
      sprintf("pbgi m = %g, s = %g, lambda = %g", m, s, lambda)))
  }
  expect_identical(problems, character(0))
  expect_gt(refused, 5L)
  # lambda c / Phi(t) with 1 / Phi(t) beyond the range: d_cost is finite
  g <- acq("pbgi", 0, 1, cost = 1, lambda = 1e-320, grad = TRUE)
  t <- -g$value
  expect_true(is.finite(g$d_cost) && g$d_cost < 0)
  expect_equal(g$d_cost, -exp(log(1e-320) - pnorm(t, log.p = TRUE)),
               tolerance = 1e-12)
})

test_that("values beyond the double range are refused naming the arguments, exact zeros are not", {
  e <- expect_error(acq("ei", 1.797e308, 1.797e308, best = -1.797e308),
                    class = "costbo_error_arg")
  expect_identical(e$arg, c("mean", "sd", "best"))
  expect_match(conditionMessage(e),
               "at point 1 (mean = 1.797e+308, sd = 1.797e+308, best = -1.797e+308) the value is Inf",
               fixed = TRUE)
  # one point out of range refuses the call, naming the point
  e <- expect_error(acq("ucb", c(0, 1e308), c(1, 1e308), beta = 2),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "at point 2", fixed = TRUE)
  # EI exactly 0: log EI is -Inf, not refused
  expect_identical(acq("log_ei", -1, 0, best = 0), -Inf)
  expect_identical(acq("log_q1", 1, 1, best = 0, cost = 2, remaining = 1),
                   -Inf)
  expect_identical(acq("log_q1", 1, 1, best = 0, log_cost_mean = 1,
                       log_cost_sd = 0, remaining = 1), -Inf)
  g <- acq("log_ei", -1, 0, best = 0, grad = TRUE)
  expect_identical(unlist(g[1, ], use.names = FALSE), c(-Inf, 0, 0))
  # EI far below the range is 0, its log refused (it is below -1.8e308)
  expect_identical(acq("ei", -1, 1e-300, best = 0), 0)
  expect_error(acq("log_ei", -1, 1e-300, best = 0),
               class = "costbo_error_arg")
  # a cost that makes EI / c overflow
  expect_error(acq("ei_pu", 1, 1, best = 0, cost = 5e-324),
               class = "costbo_error_arg")
  expect_equal(acq("log_ei_pu", 1, 1, best = 0, cost = 5e-324),
               log(acq("ei", 1, 1, best = 0)) - log(5e-324), tolerance = 1e-15)
})

# --- Pandora's Box stopping rule ----------------------------------------------

test_that("the Pandora stopping rule compares the best value and indices", {
  expect_true(acq_pandora_stop(1, c(0.2, 1)))
  expect_false(acq_pandora_stop(1, c(0.2, 1 + 1e-12)))
  expect_true(acq_pandora_stop(0, numeric(0)))
  # a near-certain point below the best value stops; an uncertain one not
  g <- acq("pbgi", c(0, 0), c(1e-3, 1), cost = 1, lambda = 0.01)
  expect_true(acq_pandora_stop(0.5, g[1]))
  expect_false(acq_pandora_stop(0.5, g))
  expect_error(acq_pandora_stop(NA, 1), class = "costbo_error_arg")
  expect_error(acq_pandora_stop(1, c(1, NA)), class = "costbo_error_arg")
})

# --- argument checks ----------------------------------------------------------

test_that("bad input raises costbo_error_arg naming the argument", {
  e <- function(...) expect_error(acq_closed_form(...),
                                  class = "costbo_error_arg")
  e("ei", 0, -1, best = 0)
  e("ei", 0, NA, best = 0)
  e("ei", NA, 1, best = 0)
  e("ei", 0, Inf, best = 0)
  e("ei", 0, 1, best = NaN)
  e("ei", 0, 1)
  e("ei", "a", 1, best = 0)
  e("eii", 0, 1, best = 0)
  e("ei", 0:2, 1:2, best = 0)
  e("ei", 0, 1, best = 0, grad = NA)
  e("ei_pu", 0, 1, best = 0, cost = 0)
  e("ei_pu", 0, 1, best = 0, cost = -1)
  e("ei_pu", 0, 1, best = 0)
  e("ei_pu", 0, 1, best = 0, cost = 1, log_cost_mean = 0, log_cost_sd = 1)
  e("ei_pu", 0, 1, best = 0, log_cost_mean = 0)
  e("ei_pu", 0, 1, best = 0, log_cost_mean = 0, log_cost_sd = -1)
  e("ei_pu", 0, 1, best = 0, cost = 1, nu = 0.5)
  e("ei_pu_cc", 0, 1, best = 0, cost = 1, nu = 1.5)
  e("ei_pu_cc", 0, 1, best = 0, cost = 1, nu = -0.1)
  e("ei_pu_cc", 0, 1, best = 0, cost = 1)
  e("q1", 0, 1, best = 0, cost = 1)
  e("q1", 0, 1, best = 0, cost = 1, remaining = NA)
  e("pbgi", 0, 1, cost = 1, lambda = 0)
  e("pbgi", 0, 1, cost = 1, lambda = -1)
  e("pbgi", 0, 1, cost = 1)
  e("pbgi", 0, 1, cost = c(1, NA), lambda = 1)
  e("pbgi", 0, 1, best = 0, cost = 1, lambda = 1)
  e("ucb", 0, 1, beta = -1)
  e("ucb", 0, 1)
  e("ei", 0, 1, best = 0, cost = 1)
  cnd <- tryCatch(acq_closed_form("pbgi", 0, 1, cost = 1, lambda = 0),
                  error = identity)
  expect_match(conditionMessage(cnd), "`lambda`")
  cnd <- tryCatch(acq_closed_form("ei_pu_cc", 0, 1, best = 0, cost = 1,
                                  nu = 2), error = identity)
  expect_match(conditionMessage(cnd), "`nu`")
})

test_that("error messages are clear", {
  expect_snapshot(error = TRUE, {
    acq_closed_form("ei", 0, -1, best = 0)
    acq_closed_form("pbgi", 0, 1, cost = 1, lambda = 0)
    acq_closed_form("q1", 0, 1, best = 0, log_cost_mean = 0)
    acq_closed_form("ei_pu_cc", 0, 1, best = 0, cost = 1, nu = 2)
  })
})

test_that("arguments are recycled and grad returns the right columns", {
  v <- acq("ei", c(0, 1, 2), 1, best = 0.5)
  expect_length(v, 3)
  g <- acq("q1", 0, c(1, 2), best = 0, log_cost_mean = 0, log_cost_sd = 1,
           remaining = 2, grad = TRUE)
  expect_named(g, c("value", "d_mean", "d_sd", "d_log_cost_mean",
                    "d_log_cost_sd"))
  expect_equal(nrow(g), 2)
  g <- acq("ei_pu", 0, 1, best = 0, cost = c(1, 2), grad = TRUE)
  expect_named(g, c("value", "d_mean", "d_sd", "d_cost"))
  expect_named(acq("ei", 0, 1, best = 0, grad = TRUE),
               c("value", "d_mean", "d_sd"))
})

test_that("one table of acquisition types drives the checks, C and the docs", {
  tab <- costbo:::acq_table
  expect_identical(costbo:::acq_types, tab$type)
  # the documented types of acq_closed_form() are exactly the table's
  rd <- paste(as.character(tools::Rd_db("costbo")[["acq_closed_form.Rd"]]),
              collapse = "")
  item <- regmatches(rd, regexpr("(?s)\\\\item\\{type\\}.*?\\\\item\\{", rd,
                                 perl = TRUE))
  documented <- gsub("\"", "", regmatches(item, gregexpr("\"[a-z0-9_]+\"",
                                                         item))[[1]])
  expect_setequal(documented, tab$type)
  m <- c(-1, 0.2, 0.7)
  s <- c(0.5, 1, 0.1)
  setting <- list(remaining = 2, nu = 0.5, lambda = 0.01, beta = 1.5)
  value <- function(i, ...) {
    a <- list(tab$type[i], m, s, ...)
    if (tab$best[i]) a$best <- 0.3
    if (!is.na(tab$setting[i])) a[[tab$setting[i]]] <- setting[[tab$setting[i]]]
    do.call(acq_closed_form, a)
  }
  for (i in seq_len(nrow(tab))) {
    # the table says which settings and costs a type takes
    if (tab$cost[i]) {
      expect_error(value(i), class = "costbo_error_arg")
      v <- value(i, cost = c(1, 2, 4))
    } else {
      expect_error(value(i, cost = 1), class = "costbo_error_arg")
      v <- value(i)
    }
    if (!is.na(tab$setting[i])) {
      a <- list(tab$type[i], m, s, cost = if (tab$cost[i]) 1)
      if (tab$best[i]) a$best <- 0.3
      expect_error(do.call(acq_closed_form, a), class = "costbo_error_arg")
    }
    if (!tab$best[i]) {
      expect_error(value(i, best = 0.3, cost = if (tab$cost[i]) 1),
                   class = "costbo_error_arg")
    }
    # a log type is the log of its plain type; a fixed nu is that of the
    # cost-cooled type
    if (tab$log[i]) {
      j <- match(sub("^log_", "", tab$type[i]), tab$type)
      expect_equal(v, log(value(j, cost = if (tab$cost[j]) c(1, 2, 4))),
                   tolerance = 1e-13)
    }
    if (!is.na(tab$nu[i])) {
      cc <- acq_closed_form(sub("ei_pu$", "ei_pu_cc", tab$type[i]), m, s,
                            best = 0.3, cost = c(1, 2, 4), nu = tab$nu[i])
      expect_identical(v, cc)
    }
  }
  # the C switch knows every code of the table and no other
  expect_error(costbo:::acq_closed_worker("ei", m, s, list(best = 0)), NA)
  bad <- max(tab$code) + 1L
  expect_error(.Call(costbo:::C_acq_closed_form, bad, m, s, m, m, m, m, m, m,
                     m, m, FALSE, FALSE), "unknown acquisition code")
})
