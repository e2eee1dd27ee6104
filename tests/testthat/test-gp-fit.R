# Gaussian-process engine: likelihood, gradient, prediction, fantasies,
# finite-domain prior, sampling and input checks.

make_data <- function(n = 25, d = 2, seed = 1) {
  set.seed(seed)
  X <- matrix(runif(n * d), n, d)
  y <- sin(5 * X[, 1]) + if (d > 1) cos(3 * X[, 2]) else 0
  list(X = X, y = y)
}

test_that("the log marginal likelihood equals a dense plain-R computation", {
  for (kernel in c("matern52", "matern32", "se")) {
    for (ard in c(TRUE, FALSE)) {
      for (noise in list(NULL, 0.01)) {
        dat <- make_data(seed = 3)
        X <- sweep(dat$X, 2, c(2, 5), "*") - 1
        fit <- gp_fit(X, dat$y, kernel = kernel, ard = ard, noise = noise,
                      estimate = "ml", lower = c(-1, -1), upper = c(1, 4))
        cf <- coef(fit)
        ref <- ref_loglik(X, dat$y, kernel, cf$lengthscale, cf$outputscale,
                          cf$noise, cf$mean)
        expect_equal(as.numeric(logLik(fit)), ref, tolerance = 1e-8)
        if (!ard) {
          rs <- cf$lengthscale / c(2, 5)
          expect_equal(rs[1], rs[2], tolerance = 1e-12)
        }
        if (!is.null(noise)) expect_equal(cf$noise, noise, tolerance = 1e-12)
      }
    }
  }
})

test_that("the likelihood gradient equals central finite differences", {
  dat <- make_data(n = 30, d = 3, seed = 4)
  for (kernel in c("matern52", "matern32", "se")) {
    for (estimate in c("ml", "map")) {
      fit <- gp_fit(dat$X, dat$y, kernel = kernel, estimate = estimate,
                    n_starts = 1)
      set.seed(5)
      for (rep in 1:3) {
        th <- fit$theta + rnorm(length(fit$theta), sd = 0.3)
        # a noise variance of about 1e-3 keeps K well conditioned, so that
        # the finite differences themselves are accurate to ~1e-7
        th[5] <- log(1e-3) + rnorm(1, sd = 0.3)
        g <- costbo:::gp_lik_eval(fit, th)$gradient
        fd <- ref_grad(function(t) costbo:::gp_lik_eval(fit, t)$value, th,
                       h = 1e-4)
        expect_lt(rel_err(g, fd, floor = 1e-2), 1e-5)
      }
    }
  }
})

test_that("profiling the mean and outputscale is exact", {
  dat <- make_data(n = 25, d = 2, seed = 18)
  fit <- gp_fit(dat$X, dat$y, estimate = "ml", n_starts = 1)
  th <- fit$theta + c(0.2, -0.3, 0.1, 0.5, 0.3)
  raw <- function(t) -costbo:::gp_lik_eval(fit, t, prior = FALSE)$value
  # profile = 1: the mean at its optimum given the rest
  p1 <- costbo:::gp_lik_eval(fit, th, prior = FALSE, profile = 1L)
  best_mu <- optimize(function(m) raw(c(th[1:4], m)), c(-5, 5),
                      maximum = TRUE, tol = 1e-10)
  expect_equal(-p1$value, best_mu$objective, tolerance = 1e-10)
  expect_equal(p1$profiled[3], best_mu$maximum, tolerance = 1e-6)
  # profile = 2: theta[4] is log(noise / outputscale); maximize the raw
  # likelihood over (log outputscale, mean) with that ratio held
  p2 <- costbo:::gp_lik_eval(fit, th, prior = FALSE, profile = 2L)
  r2 <- function(v) raw(c(th[1:2], v[1], th[4] + v[1], v[2]))
  o <- optim(c(0, 0), r2, control = list(fnscale = -1, reltol = 1e-14))
  expect_equal(-p2$value, o$value, tolerance = 1e-8)
  expect_equal(log(p2$profiled[1]), o$par[1], tolerance = 1e-4)
  # gradients of the profiled objectives equal finite differences
  for (pr in 1:2) {
    g <- costbo:::gp_lik_eval(fit, th, prior = FALSE, profile = pr)$gradient
    fd <- ref_grad(function(t) {
      costbo:::gp_lik_eval(fit, t, prior = FALSE, profile = pr)$value
    }, th, h = 1e-4)
    expect_lt(rel_err(g, fd, floor = 1e-2), 1e-5)
  }
})

test_that("the fitted optimum has zero gradient in the free parameters", {
  dat <- make_data(n = 30, d = 2, seed = 8)
  fit <- gp_fit(dat$X, dat$y, estimate = "ml", noise = 1e-4)
  g <- costbo:::gp_lik_eval(fit)$gradient
  free <- !fit$fixed
  th <- fit$theta
  lo <- c(rep(log(1e-3), 2), log(1e-4), -Inf, -Inf)
  up <- c(rep(log(1e3), 2), log(1e8), Inf, Inf)
  interior <- free & th > lo + 1e-6 & th < up - 1e-6
  expect_true(all(abs(g[interior]) < 1e-3))
})

test_that("predicted mean and sd match the textbook formulas", {
  dat <- make_data(n = 20, d = 2, seed = 6)
  set.seed(7)
  Xn <- matrix(runif(30), ncol = 2)
  for (kernel in c("matern52", "matern32", "se")) {
    fit <- gp_fit(dat$X, dat$y, kernel = kernel, noise = 1e-3,
                  lower = c(0, 0), upper = c(1, 1))
    cf <- coef(fit)
    ref <- ref_predict(dat$X, dat$y, Xn, kernel, cf$lengthscale,
                       cf$outputscale, cf$noise, cf$mean)
    p <- predict(fit, Xn)
    expect_equal(p$mean, ref$mean, tolerance = 1e-9)
    expect_equal(p$sd, ref$sd, tolerance = 1e-7)
  }
})

test_that("prediction gradients equal finite differences", {
  dat <- make_data(n = 20, d = 3, seed = 9)
  set.seed(10)
  Xn <- matrix(runif(15), ncol = 3)
  for (kernel in c("matern52", "matern32", "se")) {
    fit <- gp_fit(dat$X * 10, dat$y, kernel = kernel, noise = 1e-3,
                  lower = 0, upper = 10)
    p <- predict(fit, Xn * 10, grad = TRUE)
    for (i in seq_len(nrow(Xn))) {
      x <- Xn[i, ] * 10
      fm <- ref_grad(function(z) predict(fit, z)$mean, x, h = 1e-5)
      fs <- ref_grad(function(z) predict(fit, z)$sd, x, h = 1e-5)
      expect_lt(rel_err(p$mean_grad[i, ], fm, floor = 1e-3), 1e-5)
      expect_lt(rel_err(p$sd_grad[i, ], fs, floor = 1e-3), 1e-5)
    }
  }
})

test_that("a fantasy update equals a fresh factorization and undoes exactly", {
  dat <- make_data(n = 30, d = 2, seed = 11)
  fit <- gp_fit(dat$X[1:25, ], dat$y[1:25], lower = c(0, 0), upper = c(1, 1))
  Xa <- dat$X[26:30, ]
  ya <- dat$y[26:30]
  upd <- gp_condition(fit, Xa, ya)
  # fresh factorization of all 30 points with the same internal hyperparameters
  Xs <- rbind(fit$Xs, Xa)
  ys <- c(fit$ys, (ya - fit$ymean) / fit$ysd)
  fresh <- .Call(costbo:::C_gp_factor, Xs, ys, fit$kcode, fit$hyp, double(),
                 double())
  expect_equal(upd$L, fresh$L, tolerance = 1e-10)
  expect_equal(upd$beta, fresh$beta, tolerance = 1e-10)
  # and the same predictions as a fit with the same hyperparameters
  cf <- coef(fit)
  fit30 <- gp_fit(dat$X, dat$y, estimate = "fixed", lengthscale = cf$lengthscale,
                  outputscale = cf$outputscale, noise = cf$noise, mean = cf$mean,
                  lower = c(0, 0), upper = c(1, 1))
  set.seed(12)
  Xt <- matrix(runif(20), ncol = 2)
  expect_equal(predict(upd, Xt), predict(fit30, Xt), tolerance = 1e-10)
  expect_equal(as.numeric(logLik(upd)), as.numeric(logLik(fit30)),
               tolerance = 1e-10)
  # the C fantasies of the lookahead engines, through the CMDP rollout of
  # horizon 2 (EI): each sample conditions the GP on a fantasy observation
  # y = m + s z at x (gp_fantasy_add), moves to the one inner raw point (no
  # L-BFGS-B starts) and drops the fantasy (gp_fantasy_drop); its value is
  # max(best, y) - best + EI there, with the predictive sd of an observation
  spec <- costbo:::acq_spec(fit, "ei", NULL, 1, NULL, NULL, NULL, NULL, NULL,
                            call = NULL)
  ctl <- costbo:::cmdp_control(2L, 1L, Inf, list(inner_starts = 0L,
                                                 inner_maxit = 1L,
                                                 starts = 1L, maxit = 0L),
                                FALSE)
  z <- cbind(c(-1.3, 0.4, 2.2), 0)
  raw <- rbind(c(0.62, 0.35))
  cmdp <- function(X) {
    .Call(costbo:::C_rollout_cmdp_value, costbo:::acq_pack(spec), X, z, raw,
          0.5, ctl)
  }
  U <- rbind(c(0.15, 0.8), c(0.9, 0.1), c(0.15, 0.8))
  rt <- cmdp(U)
  # dropping restores the posterior exactly: the first point again, after
  # the second one's fantasies, and alone
  expect_identical(rt$samples[, 3], rt$samples[, 1])
  expect_identical(cmdp(U[1, , drop = FALSE])$samples[, 1], rt$samples[, 1])
  nugget <- coef(fit)$noise + fit$hyp[fit$d + 4L] * fit$ysd^2
  best <- max(fit$y)
  for (j in 1:2) {
    p <- predict(fit, U[j, , drop = FALSE])
    y <- p$mean + sqrt(p$sd^2 + nugget) * z[, 1]
    ref <- vapply(seq_along(y), function(i) {
      p2 <- predict(gp_condition(fit, U[j, , drop = FALSE], y[i]), raw)
      b <- max(best, y[i])
      b - best + ref_ei(p2$mean, sqrt(p2$sd^2 + nugget), b)
    }, 0)
    expect_equal(rt$samples[, j], ref, tolerance = 1e-10)
  }
})

test_that("the fit recovers the lengthscales of data drawn from a known GP", {
  truth <- c(0.15, 0.4)
  est <- matrix(NA, 3, 2)
  for (s in 1:3) {
    set.seed(100 + s)
    X <- matrix(runif(400), ncol = 2)
    K <- ref_cov(X, X, "matern52", truth, 1) + diag(1e-4, 200)
    y <- drop(t(chol(K)) %*% rnorm(200))
    fit <- gp_fit(X, y, estimate = "ml", lower = c(0, 0), upper = c(1, 1))
    est[s, ] <- coef(fit)$lengthscale
  }
  # each lengthscale within 30% in every replication, the mean within 15%
  expect_true(all(abs(sweep(est, 2, truth, "/") - 1) < 0.3))
  expect_true(all(abs(colMeans(est) / truth - 1) < 0.15))
})

mvn_logdens <- function(y, m, K) {
  r <- y - m
  -0.5 * sum(r * solve(K, r)) - 0.5 * log(det(K)) - length(y) / 2 * log(2 * pi)
}

test_that("the finite-domain prior reproduces Gaussian conditioning by hand", {
  # 5 candidates, prior mean m, covariance S; observe candidate 2 without
  # noise: mean_i = m_i + S[i,2] / S[2,2] (y - m_2),
  # var_i = S[i,i] - S[i,2]^2 / S[2,2].
  m <- c(0, 1, 0, -1, 0.5)
  S <- matrix(c(2, 1, 0, 0, 0,
                1, 2, 1, 0, 0,
                0, 1, 2, 1, 0,
                0, 0, 1, 2, 1,
                0, 0, 0, 1, 2), 5, 5)
  g <- gp_finite(m, S)
  p0 <- predict(g, 1:5)
  expect_equal(p0$mean, m)
  expect_equal(p0$sd, sqrt(diag(S)))
  g1 <- gp_condition(g, 2, 3)
  p1 <- predict(g1, 1:5)
  expect_equal(p1$mean, c(1, 3, 1, -1, 0.5), tolerance = 1e-12)
  expect_equal(p1$sd^2, c(1.5, 0, 1.5, 2, 2), tolerance = 1e-12)
  # then candidate 4 with noise variance 1 (by hand, from the first posterior)
  gn <- gp_finite(m, S, x = c(2, 4), y = c(3, 0), noise = 1)
  K <- S[c(2, 4), c(2, 4)] + diag(1, 2)
  ref_mean <- m + S[, c(2, 4)] %*% solve(K, c(3, 0) - m[c(2, 4)])
  ref_var <- diag(S - S[, c(2, 4)] %*% solve(K, S[c(2, 4), ]))
  pn <- predict(gn, 1:5)
  expect_equal(pn$mean, drop(ref_mean), tolerance = 1e-12)
  expect_equal(pn$sd^2, ref_var, tolerance = 1e-12)
  expect_equal(as.numeric(logLik(gn)),
               mvn_logdens(c(3, 0), m[c(2, 4)], K), tolerance = 1e-12)
})

test_that("joint posterior samples have the posterior moments", {
  g <- gp_finite(c(0, 1, 2), matrix(c(1, 0.5, 0.2, 0.5, 1, 0.5, 0.2, 0.5, 1), 3),
                 x = 1, y = 1, noise = 0.1)
  s <- simulate(g, nsim = 20000, seed = 1, newdata = 1:3)
  p <- predict(g, 1:3)
  expect_equal(rowMeans(s), p$mean, tolerance = 0.03)
  expect_equal(apply(s, 1, sd), p$sd, tolerance = 0.03)
  K <- matrix(c(1, 0.5, 0.2, 0.5, 1, 0.5, 0.2, 0.5, 1), 3)
  post <- K - K[, 1, drop = FALSE] %*% K[1, , drop = FALSE] / 1.1
  expect_equal(cov(t(s)), post, tolerance = 0.05)
})

test_that("set.seed() reproduces fits and samples exactly", {
  dat <- make_data(n = 30, d = 2, seed = 13)
  set.seed(42)
  f1 <- gp_fit(dat$X, dat$y)
  s1 <- simulate(f1, nsim = 4, newdata = dat$X[1:5, ])
  set.seed(42)
  f2 <- gp_fit(dat$X, dat$y)
  s2 <- simulate(f2, nsim = 4, newdata = dat$X[1:5, ])
  expect_identical(f1$theta, f2$theta)
  expect_identical(s1, s2)
  expect_identical(simulate(f1, 2, seed = 3, newdata = dat$X[1:3, ]),
                   simulate(f1, 2, seed = 3, newdata = dat$X[1:3, ]))
})

test_that("random Fourier features reproduce the kernel's covariance", {
  x <- rbind(c(0, 0), c(0.05, 0), c(0.1, 0.1), c(0.3, 0.2))
  for (kernel in c("matern52", "matern32", "se")) {
    set.seed(21)
    vals <- vapply(1:3000, function(i) {
      gp_prior_sample(2, kernel = kernel, lengthscale = 0.1,
                      outputscale = 2, n_features = 256)(x)
    }, numeric(4))
    emp <- cov(t(vals))
    ref <- ref_cov(x, x, kernel, c(0.1, 0.1), 2)
    # Monte Carlo error of a covariance estimate from 3000 draws
    expect_lt(max(abs(emp - ref)), 0.2)
  }
  set.seed(1)
  f <- gp_prior_sample(3, lengthscale = 0.2)
  expect_equal(f(c(0.1, 0.2, 0.3)), f(matrix(c(0.1, 0.2, 0.3), 1)))
  expect_length(f(matrix(runif(30), ncol = 3)), 10)
})

test_that("a warm start reaches the same optimum with fewer evaluations", {
  dat <- make_data(n = 41, d = 2, seed = 14)
  set.seed(1)
  cold <- gp_fit(dat$X[1:40, ], dat$y[1:40], lower = c(0, 0), upper = c(1, 1))
  warm <- gp_fit(dat$X, dat$y, start = cold, lower = c(0, 0), upper = c(1, 1))
  set.seed(1)
  cold41 <- gp_fit(dat$X, dat$y, lower = c(0, 0), upper = c(1, 1), n_starts = 4)
  expect_lt(warm$nfun, cold$nfun)
  expect_equal(warm$log_posterior, cold41$log_posterior, tolerance = 1e-4)
})

test_that("duplicated points fit through the jitter ladder", {
  dat <- make_data(n = 10, d = 2, seed = 15)
  X <- rbind(dat$X, dat$X[1:3, ])
  y <- c(dat$y, dat$y[1:3])
  fit <- gp_fit(X, y)
  expect_true(is.finite(logLik(fit)))
  fit0 <- gp_fit(X, y, noise = 0, estimate = "ml")
  expect_gt(fit0$hyp[length(fit0$hyp)], 0)
  g <- gp_finite(c(0, 0), diag(2), x = c(1, 1), y = c(0.5, 0.7), noise = 1e-2)
  expect_equal(predict(g, 1)$mean, 1.2 / 2.01, tolerance = 1e-12)
  p <- predict(fit0, X)
  expect_true(all(is.finite(p$mean)) && all(is.finite(p$sd)))
  expect_equal(p$mean, y, tolerance = 1e-3)
})

test_that("bad input stops with an error naming the argument", {
  dat <- make_data(n = 10, d = 2, seed = 16)
  X <- dat$X
  y <- dat$y
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  Xna <- X; Xna[2, 1] <- NA
  bad(gp_fit(Xna, y))
  Xinf <- X; Xinf[3, 2] <- Inf
  bad(gp_fit(Xinf, y))
  bad(gp_fit(X, replace(y, 4, NaN)))
  bad(gp_fit(X, y[-1]))
  bad(gp_fit(X[1, , drop = FALSE], y[1]))
  bad(gp_fit(X, rep(2, 10)))
  bad(gp_fit(X, y, lower = c(0, 0), upper = c(0.5, 1)))
  bad(gp_fit(X, y, kernel = "matern12"))
  bad(gp_fit(X, y, estimate = "fixed"))
  bad(gp_fit(X, y, noise = -1))
  bad(gp_fit(X, y, noise_ceiling = 0))
  bad(gp_fit(X, y, noise_floor = 1e-3, noise_ceiling = 1e-4))
  bad(gp_fit(X, y, lengthscale = c(1, -1)))
  bad(gp_fit(X, y, start = "previous"))
  bad(gp_fit("a", y))
  fit <- gp_fit(X, y, n_starts = 1)
  bad(predict(fit, matrix(0.5, 2, 3)))
  bad(predict(fit, c(0.5, NA)))
  bad(predict(fit, c(0.5, 0.5), grad = NA))
  bad(gp_condition(fit, c(0.5, 0.5), c(1, 2)))
  bad(gp_finite(c(0, 0), matrix(c(1, 2, 2, 1), 2)))
  bad(gp_finite(c(0, 0), matrix(c(1, 0.5, 0.2, 1), 2)))
  bad(gp_finite(c(0, 0), diag(3)))
  g <- gp_finite(c(0, 0), diag(2))
  bad(predict(g, 3))
  bad(predict(g, 1, grad = TRUE))
  bad(simulate(fit, nsim = 0, newdata = X))
  bad(gp_prior_sample(0))
  expect_snapshot(gp_fit(X, rep(2, 10)), error = TRUE)
  expect_snapshot(gp_fit(X, y, lower = c(0, 0), upper = c(0.5, 1)),
                  error = TRUE)
  expect_snapshot(gp_fit(X, y, kernel = "matern12"), error = TRUE)
  expect_snapshot(gp_fit(Xna, y), error = TRUE)
})

test_that("print, coef and logLik give what an R user expects", {
  dat <- make_data(n = 12, d = 2, seed = 17)
  fit <- gp_fit(dat$X, dat$y, estimate = "ml", n_starts = 1,
                lower = c(0, 0), upper = c(1, 1))
  expect_output(expect_invisible(print(fit)),
                "matern52 kernel, 2 inputs, 12 observations")
  cf <- coef(fit)
  expect_named(cf, c("lengthscale", "outputscale", "noise", "mean"))
  ll <- logLik(fit)
  expect_s3_class(ll, "logLik")
  expect_equal(attr(ll, "nobs"), 12L)
  expect_equal(attr(ll, "df"), 5L)
  expect_equal(AIC(fit), -2 * as.numeric(ll) + 10)
  set.seed(1)
  f <- gp_prior_sample(2)
  expect_output(print(f), "GP prior sample: matern52 kernel, 2 inputs")
})

test_that("the default multistart finds the noisy optimum, not an overfit", {
  # noisy data: screening by value favours low-noise starts, which
  # interpolate the noise; the second run starts on the noisy side
  set.seed(31)
  X <- matrix(runif(240), ncol = 3)
  f <- sin(4 * X[, 1]) + cos(3 * X[, 2]) * X[, 3]
  y <- f + rnorm(80, sd = 0.1)
  set.seed(32)
  fit <- gp_fit(X, y, kernel = "se", estimate = "ml")
  set.seed(32)
  many <- gp_fit(X, y, kernel = "se", estimate = "ml", n_starts = 8)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(many)),
               tolerance = 1e-6)
  expect_gt(coef(fit)$noise, 1e-3)
})

test_that("a large fit screened on a subset reaches the full-data optimum", {
  skip_on_cran()
  # n > 300: the multistart runs on 150 points, one run on all 320; the
  # reference is an independent multistart of the profiled likelihood on
  # all the data, over both noise regimes
  set.seed(41)
  X <- matrix(runif(960), ncol = 3)
  y <- sin(4 * X[, 1]) + cos(3 * X[, 2]) * X[, 3] + rnorm(320, sd = 0.05)
  set.seed(42)
  fit <- gp_fit(X, y, kernel = "se", estimate = "ml", lower = rep(0, 3),
                upper = rep(1, 3))
  full <- function(t) c(t[1:3], 0, t[4], 0)
  cache <- new.env()
  ev <- function(t) {
    if (!identical(t, cache$t)) {
      cache$t <- t
      cache$v <- gp_lik_eval(fit, full(t), prior = FALSE, profile = 2L)
    }
    cache$v
  }
  best <- -Inf
  for (l in log(c(0.1, 0.3, 1))) for (g in log(c(1e-6, 1e-3, 1e-2))) {
    o <- stats::optim(c(rep(l, 3), g), function(t) ev(t)$value,
                      function(t) ev(t)$gradient[c(1:3, 5)],
                      method = "L-BFGS-B", lower = c(rep(log(1e-3), 3), log(1e-6)),
                      upper = c(rep(log(1e3), 3), log(10)))
    best <- max(best, -o$value)
  }
  expect_gt(fit$log_posterior, best - 1e-3)
  expect_gt(coef(fit)$noise / coef(fit)$outputscale, 1e-4)
})

test_that("noise_ceiling bounds the estimated noise from above", {
  set.seed(21)
  X <- matrix(runif(60), ncol = 2)
  y <- sin(5 * X[, 1]) + X[, 2] + rnorm(30, sd = 0.3)
  free <- gp_fit(X, y)
  vy <- var(y)
  expect_gt(coef(free)$noise / vy, 1e-2) # noisy data: large noise when free
  cap <- gp_fit(X, y, noise_floor = 1e-4, noise_ceiling = 1e-3)
  cf <- coef(cap)
  # at the ceiling, the other hyperparameters are the MAP with the noise
  # fixed there (the noise prior is then a constant)
  expect_equal(cf$noise / vy, 1e-3, tolerance = 1e-6)
  ref <- coef(gp_fit(X, y, noise = 1e-3 * vy, n_starts = 4))
  expect_equal(cf$lengthscale, ref$lengthscale, tolerance = 1e-3)
  expect_equal(cf$outputscale, ref$outputscale, tolerance = 1e-3)
  expect_equal(cf$mean, ref$mean, tolerance = 1e-3)
  expect_identical(cap$noise_ceiling, 1e-3)
  # warm-started refits stay in the band
  cap2 <- gp_fit(rbind(X, c(0.5, 0.5)), c(y, 1), noise_floor = 1e-4,
                 noise_ceiling = 1e-3, start = cap)
  nv <- coef(cap2)$noise / var(c(y, 1))
  expect_true(nv >= 1e-4 * (1 - 1e-8) && nv <= 1e-3 * (1 + 1e-8))
  # noise-free data: a band that excludes the free optimum is respected
  yd <- sin(5 * X[, 1]) + X[, 2]
  band <- coef(gp_fit(X, yd, noise_floor = 1e-5, noise_ceiling = 1e-4))
  nv <- band$noise / var(yd)
  expect_true(nv >= 1e-5 * (1 - 1e-8) && nv <= 1e-4 * (1 + 1e-8))
})

test_that("the kernels vanish, without NaN, at huge but finite distances", {
  set.seed(3)
  X <- matrix(runif(16), ncol = 2)
  y <- sin(5 * X[, 1]) + X[, 2]
  far <- rbind(c(1e154, 0.5), c(-1e300, 1e300), c(0.5, 1e200))
  for (k in c("matern52", "matern32", "se")) {
    fit <- gp_fit(X, y, kernel = k, lower = c(0, 0), upper = c(1, 1))
    cf <- coef(fit)
    p <- predict(fit, far, grad = TRUE)
    # the limit: no correlation with the data, so the prior
    expect_equal(p$mean, rep(cf$mean, 3), tolerance = 1e-12)
    expect_equal(p$sd, rep(sqrt(cf$outputscale), 3), tolerance = 1e-12)
    expect_true(all(is.finite(p$mean_grad)) && all(p$mean_grad == 0))
    expect_true(all(is.finite(p$sd_grad)) && all(p$sd_grad == 0))
    # continuous on the way there: at 1e3 lengthscales the kernel is
    # below 1e-300 of its value at 0 already
    mid <- predict(fit, c(1e3 * max(cf$lengthscale), 0.5))
    expect_equal(mid$mean, cf$mean, tolerance = 1e-12)
    ei <- acq_evaluate(fit, far[1, , drop = FALSE] * 0 + c(1, 0.5), "ei")
    expect_true(is.finite(ei))
    s <- simulate(fit, 3, seed = 1, newdata = far)
    expect_true(all(is.finite(s)))
  }
})

test_that("size arguments are capped", {
  set.seed(4)
  X <- matrix(runif(8), ncol = 2)
  fit <- gp_fit(X, X[, 1] - X[, 2], lower = 0, upper = 1)
  expect_error(gp_fit(X, X[, 1] - X[, 2], n_starts = 1001),
               class = "costbo_error_arg")
  expect_error(simulate(fit, nsim = 1e8, newdata = rbind(c(0, 0), c(1, 1))),
               class = "costbo_error_arg")
  expect_error(simulate(fit, nsim = 1, newdata = matrix(0.5, 1001, 2)),
               class = "costbo_error_arg")
  expect_error(gp_prior_sample(2, n_features = 2e6), class = "costbo_error_arg")
  expect_equal(dim(simulate(fit, nsim = 2, seed = 1,
                            newdata = rbind(c(0, 0), c(1, 1)))), c(2L, 2L))
})

# Factorizations above LAPACK's block size (64) run block by block, with an
# interrupt check between blocks; n = 150 gives blocks of 64, 64 and 22.
test_that("factors over several blocks equal a dense R factorization", {
  set.seed(31)
  n <- 150
  X <- matrix(runif(2 * n), n)
  y <- sin(6 * X[, 1]) - X[, 2]
  kcode <- match("matern52", costbo:::gp_kernels) - 1L
  hyp <- c(0.3, 0.5, 1.2, 1e-3, 0.1, 0)
  fac <- .Call(costbo:::C_gp_factor, X, y, kcode, hyp, double(), double())
  K <- ref_cov(X, X, "matern52", c(0.3, 0.5), 1.2) + diag(1e-3, n)
  expect_identical(fac$jitter, 0)
  expect_equal(fac$L, t(chol(K)), tolerance = 1e-10)
  expect_equal(fac$beta, forwardsolve(t(chol(K)), y - 0.1), tolerance = 1e-10)
  # a point repeated in the second and third blocks, without noise, makes
  # the factorization fail there: the jitter ladder climbs, and the factor
  # is that of K + jitter I
  X[c(100, 140), ] <- X[rep(90, 2), ]
  hyp[4] <- 0
  fac <- .Call(costbo:::C_gp_factor, X, y, kcode, hyp, double(), double())
  K <- ref_cov(X, X, "matern52", c(0.3, 0.5), 1.2)
  expect_gt(fac$jitter, 0)
  expect_equal(tcrossprod(fac$L), K + diag(fac$jitter, n), tolerance = 1e-10)
})

test_that("the likelihood gradient over several blocks equals finite differences", {
  dat <- make_data(n = 150, d = 2, seed = 32)
  fit <- gp_fit(dat$X, dat$y, estimate = "ml", n_starts = 1)
  set.seed(33)
  for (rep in 1:2) {
    th <- fit$theta + rnorm(length(fit$theta), sd = 0.3)
    th[4] <- log(1e-2) + rnorm(1, sd = 0.3)
    ev <- costbo:::gp_lik_eval(fit, th)
    ell <- exp(th[1:2])
    ref <- ref_loglik(fit$Xs, fit$ys, "matern52", ell, exp(th[3]), exp(th[4]),
                      th[5])
    expect_equal(ev$loglik, ref, tolerance = 1e-9)
    fd <- ref_grad(function(t) costbo:::gp_lik_eval(fit, t)$value, th,
                   h = 1e-4)
    expect_lt(rel_err(ev$gradient, fd, floor = 1e-2), 1e-5)
  }
})

test_that("joint samples at many points are the mean plus the factor times draws", {
  m <- 150
  grid <- seq(0, 1, length.out = m)
  K <- ref_cov(grid, grid, "matern52", 0.2, 1) + diag(1e-4, m)
  mu0 <- sin(4 * grid)
  obs <- c(10, 75, 120)
  g <- gp_finite(mu0, K, x = obs, y = c(0.5, -0.2, 0.3), noise = 0.05)
  s <- simulate(g, nsim = 2, seed = 7, newdata = seq_len(m))
  Ko <- K[, obs] %*% solve(K[obs, obs] + diag(0.05, 3))
  post_mean <- mu0 + drop(Ko %*% (c(0.5, -0.2, 0.3) - mu0[obs]))
  post_cov <- K - Ko %*% K[obs, ]
  set.seed(7)
  z <- matrix(rnorm(2 * m), m)
  expect_equal(as.vector(s), as.vector(post_mean + t(chol(post_cov)) %*% z),
               tolerance = 1e-8)
})

# GP variants as classes ---------------------------------------------------

variant_fits <- function() {
  set.seed(41)
  X <- matrix(runif(20), ncol = 2)
  fit_c <- gp_fit(X, sin(5 * X[, 1]) + X[, 2], lower = c(0, 0),
                  upper = c(1, 1))
  fit_f <- gp_finite(c(0, 0.5, 0), diag(c(1, 2, 1)) + 0.2, x = c(1, 3),
                     y = c(0.4, -0.3), noise = 0.01)
  s <- rep(0:1, 5)
  fit_m <- gp_fit_miso(X, s, sin(5 * X[, 1]) + X[, 2] + 0.2 * s,
                       lower = c(0, 0), upper = c(1, 1))
  list(continuous = fit_c, finite = fit_f, miso = fit_m)
}

test_that("each fitting function makes its variant's class", {
  fits <- variant_fits()
  expect_identical(class(fits$continuous), c("costbo_gp_continuous", "costbo_gp"))
  expect_identical(class(fits$finite), c("costbo_gp_finite", "costbo_gp"))
  expect_identical(class(fits$miso), c("costbo_gp_miso", "costbo_gp"))
  # conditioning keeps the class
  expect_s3_class(gp_condition(fits$finite, 2, 0.1), "costbo_gp_finite")
  expect_s3_class(gp_condition(fits$continuous, c(0.5, 0.5), 0.2),
                  "costbo_gp_continuous")
  expect_s3_class(gp_condition(fits$miso, c(0.5, 0.5, 1), 0.2),
                  "costbo_gp_miso")
})

test_that("gp_can() tells what each variant can and cannot do", {
  fits <- variant_fits()
  can <- function(g) {
    vapply(names(costbo:::gp_capabilities), function(w) costbo:::gp_can(g, w),
           NA)
  }
  # the contract, written out
  expect_identical(can(fits$continuous)[c("gradient", "box", "condition",
                                          "sample", "acq_closed_form",
                                          "cost_model", "prior_sample",
                                          "control_sets")],
                   setNames(rep(TRUE, 8), c("gradient", "box", "condition",
                                            "sample", "acq_closed_form",
                                            "cost_model", "prior_sample",
                                            "control_sets")))
  expect_identical(names(which(can(fits$finite))),
                   c("condition", "sample", "acq_closed_form", "cost_model"))
  expect_identical(names(which(can(fits$miso))),
                   c("condition", "sample", "acq_closed_form"))
  expect_identical(vapply(fits, costbo:::gp_inputs, ""),
                   c(continuous = "box", finite = "candidates",
                     miso = "sources"))
  expect_error(costbo:::gp_can(fits$finite, "fly"), "unknown GP capability")
  # what a variant can do, it does: conditioning and sampling everywhere
  expect_equal(dim(simulate(fits$finite, 2, seed = 1, newdata = 1:3)), c(3, 2))
  expect_equal(dim(simulate(fits$miso, 2, seed = 1,
                            newdata = rbind(c(0.2, 0.3, 0), c(0.2, 0.3, 1)))),
               c(2, 2))
})

test_that("a capability a variant lacks is an error naming the argument", {
  fits <- variant_fits()
  cap_error <- function(expr, arg, what, variant) {
    e <- expect_error(expr, class = "costbo_error_capability")
    expect_s3_class(e, "costbo_error_arg")
    expect_identical(e$arg, arg)
    expect_identical(e$capability, what)
    expect_identical(e$variant, variant)
    expect_match(conditionMessage(e), sprintf("`%s` must be", arg),
                 fixed = TRUE)
  }
  nd <- rbind(c(0.2, 0.3, 0), c(0.7, 0.1, 1))
  cap_error(predict(fits$finite, 1:2, grad = TRUE), "grad", "gradient",
            "finite")
  cap_error(predict(fits$miso, nd, grad = TRUE), "grad", "gradient", "miso")
  cap_error(acq_evaluate(fits$finite, 1:2, "ei", grad = TRUE), "grad",
            "gradient", "finite")
  cap_error(acq_evaluate(fits$miso, nd, "ei", grad = TRUE), "grad",
            "gradient", "miso")
  cap_error(acq_maximize(fits$miso, "ei"), "candidates", "box", "miso")
  cap_error(acq_evaluate(fits$miso, nd, "ei_pu", cost_model = fits$miso),
            "cost_model", "cost_model", "miso")
  for (v in c("finite", "miso")) {
    cap_error(acq_expected_ucb(fits[[v]], 0.3, controlled = 1,
                               samples = matrix(0.5, 4, 2)),
              "model", "control_sets", v)
  }
  # the same calls on the continuous fit give numbers, not errors
  p <- predict(fits$continuous, rbind(c(0.3, 0.6)), grad = TRUE)
  expect_true(all(is.finite(p$mean_grad)) && all(is.finite(p$sd_grad)))
  expect_true(is.finite(acq_expected_ucb(fits$continuous, 0.3, controlled = 1,
                                         samples = matrix(0.5, 4, 2))))
  # C refuses x-gradients of a variant without them (never a silent 0)
  expect_error(.Call(costbo:::C_gp_predict, costbo:::gp_pack(fits$finite),
                     matrix(0:2, ncol = 1), TRUE),
               "x-gradients of a finite-domain GP")
  expect_error(.Call(costbo:::C_gp_predict, costbo:::gp_pack(fits$miso),
                     cbind(0.5, 0.5, 0:1), TRUE),
               "x-gradients of a multi-source GP")
})

test_that("the gradient forms of the one predict routine agree with finite differences", {
  fits <- variant_fits()
  fit <- fits$continuous
  x <- rbind(c(0.31, 0.62), c(0.8, 0.15))
  p <- predict(fit, x, grad = TRUE)
  # acq_evaluate (precomputed U) and acq_expected_ucb with every input
  # controlled (plain back substitution) differentiate m + beta s
  u <- acq_evaluate(fit, x, "ucb", beta = 1.5, grad = TRUE)
  expect_equal(u$value, p$mean + 1.5 * p$sd, tolerance = 1e-12)
  expect_equal(u$grad, p$mean_grad + 1.5 * p$sd_grad, tolerance = 1e-10)
  e <- acq_expected_ucb(fit, x, controlled = 1:2, samples = matrix(0.5, 1, 2),
                        beta = 1.5, grad = TRUE)
  expect_equal(e$value, u$value, tolerance = 1e-12)
  expect_equal(e$grad, u$grad, tolerance = 1e-10)
  h <- 1e-6
  for (k in 1:2) {
    dx <- matrix(0, 2, 2)
    dx[, k] <- h
    fd <- (predict(fit, x + dx)$mean - predict(fit, x - dx)$mean) / (2 * h)
    expect_equal(p$mean_grad[, k], fd, tolerance = 1e-6)
    fd <- (predict(fit, x + dx)$sd - predict(fit, x - dx)$sd) / (2 * h)
    expect_equal(p$sd_grad[, k], fd, tolerance = 1e-6)
  }
})

test_that("hand-built objects of each class are accepted or rejected", {
  fits <- variant_fits()
  # a fit saved by the previous release (class "costbo_gp" alone) works and
  # is upgraded where it enters
  for (v in names(fits)) {
    old <- fits[[v]]
    class(old) <- "costbo_gp"
    up <- costbo:::check_gp_object(old)
    expect_identical(class(up), class(fits[[v]]))
    expect_identical(costbo:::gp_inputs(old), costbo:::gp_inputs(fits[[v]]))
    expect_identical(coef(old), coef(fits[[v]]))
    expect_identical(utils::capture.output(print(old)),
                     utils::capture.output(print(fits[[v]])))
  }
  old <- fits$continuous
  class(old) <- "costbo_gp"
  nd <- rbind(c(0.2, 0.4), c(0.9, 0.1))
  expect_identical(predict(old, nd, grad = TRUE),
                   predict(fits$continuous, nd, grad = TRUE))
  expect_identical(acq_evaluate(old, nd, "ei"),
                   acq_evaluate(fits$continuous, nd, "ei"))
  expect_s3_class(gp_condition(old, nd[1, ], 0.5), "costbo_gp_continuous")
  # ... and so are the models of a state read by bo_resume(), bo_ask(), ...
  up <- costbo:::gp_upgrade_models(list(f = old, cost = NULL))
  expect_s3_class(up$f, "costbo_gp_continuous")
  expect_null(up$cost)
  expect_identical(names(up), c("f", "cost"))
  # a class and a kernel that disagree: rejected, naming the field
  bad <- fits$finite
  class(bad) <- c("costbo_gp_continuous", "costbo_gp")
  e <- expect_error(predict(bad, 1:3), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$kernel`", fixed = TRUE)
  bad <- fits$continuous
  class(bad) <- c("costbo_gp_finite", "costbo_gp")
  e <- expect_error(predict(bad, 1), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$kernel`", fixed = TRUE)
  # a multi-source class on a continuous fit lacks the sources
  bad <- fits$continuous
  class(bad) <- c("costbo_gp_miso", "costbo_gp")
  bad$kernel <- "miso"
  bad$kcode <- 4L
  e <- expect_error(predict(bad, cbind(nd, 0)), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$n_sources`", fixed = TRUE)
  # an unknown subclass, and an old fit whose kernel names no variant
  bad <- fits$continuous
  class(bad) <- c("costbo_gp_sparse", "costbo_gp")
  e <- expect_error(predict(bad, nd), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`class(object)`", fixed = TRUE)
  old$kernel <- "matern12"
  e <- expect_error(predict(old, nd), class = "costbo_error_arg")
  expect_match(conditionMessage(e), "`object$kernel`", fixed = TRUE)
  # another kernel of the same variant with its code: the structure of a
  # continuous fit (its numbers are the user's business), accepted
  se <- fits$continuous
  se$kernel <- "se"
  se$kcode <- 2L
  expect_identical(class(costbo:::check_gp_object(se)), class(se))
  expect_true(all(is.finite(predict(se, nd)$mean)))
})

test_that("fitted(), residuals() and simulate() work at the fitted data, as for stats' models", {
  set.seed(1)
  X <- matrix(runif(30), ncol = 2)
  y <- sin(5 * X[, 1]) + X[, 2] + rnorm(15, sd = 0.1)
  fit <- gp_fit(X, y, noise = 0.01, estimate = "fixed", lengthscale = 0.3,
                outputscale = 1)
  # the posterior mean at the inputs, by the dense formula in the user's
  # units: m + K (K + s2 I)^{-1} (y - m) for the standardized constant mean
  p <- predict(fit, X)
  expect_equal(fitted(fit), p$mean, tolerance = 1e-12)
  expect_equal(residuals(fit), y - p$mean, tolerance = 1e-12)
  # a noise variance of 0.01 of the standardized data leaves residuals
  # that are neither 0 nor the data's spread
  expect_gt(sd(residuals(fit)), 1e-4)
  expect_lt(sd(residuals(fit)), sd(y) / 2)
  # simulate() without newdata samples at the fitted inputs
  a <- simulate(fit, nsim = 3, seed = 7)
  b <- simulate(fit, nsim = 3, seed = 7, newdata = X)
  expect_identical(dim(a), c(15L, 3L))
  expect_identical(unclass(a), unclass(b))
  # the finite and the multi-source GPs too
  ff <- gp_finite(rep(0, 5), diag(5), x = c(1, 3), y = c(0.5, -0.2),
                  noise = 0.01)
  # conditioning N(0, 1) on y + N(0, 0.01): y / 1.01
  expect_equal(fitted(ff), c(0.5, -0.2) / 1.01, tolerance = 1e-12)
  expect_equal(residuals(ff), c(0.5, -0.2) * (1 - 1 / 1.01), tolerance = 1e-12)
  s <- rep(0:1, length.out = 15)
  fm <- gp_fit_miso(X, s, sin(3 * X[, 1]) + 0.1 * s)
  expect_equal(fitted(fm), predict(fm, cbind(X, s))$mean, tolerance = 1e-12)
  expect_length(residuals(fm), 15L)
})

# --- the extremes of the double range ------------------------------------------

test_that("fixed settings and data at the extremes of the double range fit finite models or are refused naming them", {
  set.seed(8)
  X <- matrix(runif(12), 6)
  y <- sin(3 * X[, 1]) + X[, 2]
  fit1 <- function(yy = y, ...) {
    gp_fit(X, yy, lower = c(0, 0), upper = c(1, 1), n_starts = 1, ...)
  }
  refused <- function(expr, args, pattern = NULL) {
    e <- tryCatch({
      expr
      NULL
    }, error = identity)
    expect_s3_class(e, "costbo_error_arg")
    expect_identical(e$arg, args)
    if (!is.null(pattern)) expect_match(conditionMessage(e), pattern)
  }
  new <- rbind(c(0.5, 0.5), X[1, ])
  # lengthscales: 5e-324 has an infinite inverse; 1e-300 and 1e300 times
  # the width are the limits of no and of full correlation
  for (k in c("matern52", "matern32", "se")) {
    refused(fit1(kernel = k, lengthscale = 5e-324, outputscale = 1,
                 estimate = "fixed"), c("lengthscale", "lower", "upper"))
    f <- fit1(kernel = k, lengthscale = 1e-300, outputscale = 2,
              estimate = "fixed")
    cf <- coef(f)
    p <- predict(f, rbind(c(0.5, 0.5), X[1, ]))
    # K = (2 + noise) I: the constant mean is mean(y)
    expect_equal(cf$mean, mean(y), tolerance = 1e-12)
    expect_equal(p$mean, c(mean(y), mean(y) + 2 / (2 + cf$noise) *
                             (y[1] - mean(y))), tolerance = 1e-12)
    expect_equal(p$sd, sqrt(c(2, 2 - 4 / (2 + cf$noise))), tolerance = 1e-9)
    expect_true(is.finite(logLik(f)))
    f <- fit1(kernel = k, lengthscale = 1e300, outputscale = 2,
              estimate = "fixed")
    cf <- coef(f)
    expect_equal(predict(f, new),
                 ref_predict(X, y, new, k, c(1e300, 1e300), 2, cf$noise,
                             cf$mean), tolerance = 1e-8)
  }
  # outputscale and noise up to 1e300 var(y), not beyond
  v <- var(y)
  for (os in c(0.5e300 * v, 2e-300 * v)) {
    f <- fit1(lengthscale = 0.3, outputscale = os, estimate = "fixed")
    cf <- coef(f)
    p <- predict(f, new)
    r <- ref_predict(X, y, new, "matern52", c(0.3, 0.3), os, cf$noise,
                     cf$mean)
    expect_equal(p$mean, r$mean, tolerance = 1e-8)
    # the sd is a difference of two terms of size os: to 1e-8 sqrt(os)
    expect_lt(max(abs(p$sd - r$sd)), 1e-8 * sqrt(os))
  }
  refused(fit1(lengthscale = 0.3, outputscale = 1.797e308, estimate = "fixed"),
          "outputscale")
  refused(fit1(lengthscale = 0.3, outputscale = 5e-324, estimate = "fixed"),
          "outputscale")
  f <- fit1(noise = 1e300 * v)
  expect_true(all(is.finite(unlist(predict(f, new)))))
  expect_true(is.finite(logLik(f)))
  refused(fit1(noise = 1.797e308), "noise")
  # a fixed mean: 1e100 from the data is a finite likelihood (checked
  # against a dense computation); 1e200 is not; 1.797e308 is beyond the
  # standardized scale
  f <- fit1(mean = 1e100, lengthscale = 0.3, outputscale = 1,
            estimate = "fixed")
  cf <- coef(f)
  expect_equal(as.numeric(logLik(f)),
               ref_loglik(X, y, "matern52", c(0.3, 0.3), 1, cf$noise, 1e100),
               tolerance = 1e-10)
  refused(fit1(mean = 1e200), "mean", "log marginal likelihood finite")
  refused(fit1(mean = -1.797e308), "mean", "within 1e\\+300 sd")
  # data whose variance overflows, or underflows to 0, are refused; data
  # scaled by 1e150 give the same model scaled by 1e150
  refused(fit1(c(1e200, -1e200, y[3:6])), "y", "overflows")
  refused(fit1(y * 1e-300), "y", "underflows")
  f <- fit1(lengthscale = 0.3, outputscale = 1, estimate = "fixed")
  g <- fit1(y * 1e150, lengthscale = 0.3, outputscale = 1e300,
            estimate = "fixed")
  expect_equal(predict(g, new)$mean / 1e150, predict(f, new)$mean,
               tolerance = 1e-12)
  expect_equal(predict(g, new)$sd / 1e150, predict(f, new)$sd,
               tolerance = 1e-9)
  # predictions at points far outside the box are the prior's
  p <- predict(f, rbind(c(1.797e308, 0.5), c(-1.797e308, 5e-324)))
  expect_equal(p$mean, rep(coef(f)$mean, 2), tolerance = 1e-14)
  expect_equal(p$sd, rep(1, 2), tolerance = 1e-14)
})

test_that("conditioning on extreme observations is exact or refused naming `y`", {
  set.seed(9)
  X <- matrix(runif(12), 6)
  y <- sin(3 * X[, 1]) + X[, 2]
  f <- gp_fit(X, y, lower = c(0, 0), upper = c(1, 1), lengthscale = 0.3,
              outputscale = 1, estimate = "fixed")
  cf <- coef(f)
  g <- gp_condition(f, c(0.5, 0.5), 1e100)
  Xa <- rbind(X, c(0.5, 0.5))
  expect_equal(as.numeric(logLik(g)),
               ref_loglik(Xa, c(y, 1e100), "matern52", c(0.3, 0.3), 1,
                          cf$noise, cf$mean), tolerance = 1e-10)
  for (v in c(1e300, 1.797e308, -1.797e308)) {
    e <- expect_error(gp_condition(f, c(0.5, 0.5), v),
                      class = "costbo_error_arg")
    expect_identical(e$arg, "y")
  }
  # a finite GP: a prior of variance 5e-324 cannot explain 0.1
  S <- diag(3) + 0.5
  e <- expect_error(gp_finite(c(0, 0.2, 0), S * 5e-324, x = 1, y = 0.1),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "y")
  expect_identical(conditionCall(e)[[1L]], quote(gp_finite))
  g <- gp_finite(c(0, 1e300, 0), S, x = 1, y = 0.1)
  p <- predict(g, 1:3)
  expect_true(all(is.finite(unlist(p))))
  # the posterior mean of a prior mean of 1e300 moves by (0.1 - 0) S21 / S11
  expect_equal(p$mean, c(0.1, 1e300 + 0.5 / 1.5 * 0.1, 0.5 / 1.5 * 0.1),
               tolerance = 1e-14)
})

test_that("prior samples at the extremes are finite or refused naming the argument", {
  set.seed(1)
  f1 <- gp_prior_sample(2, outputscale = 1)
  set.seed(1)
  f2 <- gp_prior_sample(2, outputscale = 1.797e308)
  x <- rbind(c(0.3, 0.7), c(0.9, 0.1))
  expect_equal(f2(x) / f1(x), rep(sqrt(1.797e308), 2), tolerance = 1e-14)
  e <- expect_error(gp_prior_sample(2, lengthscale = 5e-324),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "lengthscale")
  set.seed(1)
  f3 <- gp_prior_sample(2, lengthscale = 1e-300)
  e <- expect_error(f3(c(1e300, 1)), class = "costbo_error_arg")
  expect_identical(e$arg, "x")
  expect_true(is.finite(f3(c(0.5, 0.5))))
})
