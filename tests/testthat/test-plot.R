# Plots return what they drew; the tests check it against independent
# computations (the fitted GPs' predictions at points built here, dense
# leave-one-out solves, running maxima and minima of the records).

# Draw on a PDF device that is closed when the calling test ends.
local_device <- function(env = parent.frame()) {
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  dev <- grDevices::dev.cur()
  do.call(base::on.exit,
          list(bquote({
            grDevices::dev.off(.(dev))
            unlink(.(f))
          }), add = TRUE), envir = env)
  invisible(f)
}

loss2 <- function(x) 1 + sum((x - c(0.3, 0.6))^2) + 0.2 * sin(8 * x[1])

test_that("the progress plot draws the records, the best so far and a cost key", {
  local_device()
  run <- bo_optimize(measured_cost_problem(20), policy_ei_pu(), n_init = 4,
                     seed = 1, progress = FALSE)
  out <- expect_invisible(plot(run))
  df <- as.data.frame(run)
  ev <- out$evaluations
  expect_identical(ev$value, df$value)
  expect_identical(ev$cumulative_cost, df$cumulative_cost)
  ok <- df$status == "ok"
  expect_identical(out$best$best_value, cummax(ifelse(ok, df$value, -Inf)))
  # the key gives the range of the costs, from the cheapest colour to the
  # dearest
  key <- out$cost_key
  expect_identical(key$range, range(run$cost))
  expect_identical(key$levels[c(1L, 4L)], range(run$cost))
  expect_identical(ev$col[which.min(run$cost)], key$colours[1L])
  expect_identical(ev$col[which.max(run$cost)], key$colours[4L])
  # the colours follow the log of the cost when it spans a factor of 10
  expect_identical(key$log, max(run$cost) >= 10 * min(run$cost))
  # only what was drawn is in the key: nothing failed
  expect_false(any(df$status != "ok"))
  expect_identical(out$legend, c("best so far", "evaluation",
                                 "initial design", "budget"))
  expect_identical(ev$pch, ifelse(df$phase == "initial", 1, 19))
})

test_that("the user's graphical parameters replace the defaults", {
  local_device()
  run <- bo_optimize(known_cost_problem(40), policy_ei(), n_init = 4,
                     seed = 2, progress = FALSE)
  # the issue: 'formal argument "xlab" matched by multiple actual arguments'
  out <- plot(run, xlab = "CPU seconds", ylab = "accuracy", main = "EI",
              ylim = c(-50, 5), col = "red", pch = 17)
  expect_identical(out$ylim, c(-50, 5))
  # the frame R drew: the limits widened by 4% on each side
  expect_equal(graphics::par("usr")[3:4], c(-50, 5) + c(-1, 1) * 0.04 * 55,
               tolerance = 1e-12)
  expect_identical(unique(out$evaluations$col), "red")
  expect_identical(unique(out$evaluations$pch), 17)
  # the colours are the user's: no cost key
  expect_null(out$cost_key)
  expect_error(plot(run, "model", 50, "x"), class = "costbo_error_arg")
  expect_error(plot(run, type = "surface"), class = "costbo_error_arg")
})

test_that("a run whose evaluations all failed is plotted without warnings", {
  local_device()
  prob <- bo_problem(function(x) stop("broken"), c(0, 0), c(1, 1), cost = 1,
                     budget = 3)
  expect_warning(run <- bo_optimize(prob, policy_random(), n_init = 2,
                                    seed = 1, progress = FALSE),
                 class = "costbo_warning_failed")
  expect_no_warning(out <- plot(run))
  expect_identical(out$ylim, c(0, 1))
})

test_that("failures are drawn at the worst edge and keyed only when there are any", {
  local_device()
  f <- function(x) if (x[1] > 0.75) stop("broken") else loss2(x)
  prob <- bo_problem(f, c(0, 0), c(1, 1), cost = function(x) 1 + x[2],
                     budget = 14, maximize = FALSE)
  run <- bo_optimize(prob, policy_ei_pu(), n_init = 6, seed = 3,
                     progress = FALSE, on_error = "skip")
  df <- as.data.frame(run)
  bad <- df$status != "ok"
  expect_true(any(bad))
  expect_true(any(!bad))
  out <- plot(run)
  expect_true("failed" %in% out$legend)
  # minimized: the worst edge is the top, and the best is the smallest
  expect_identical(out$evaluations$y[bad], rep(out$ylim[2L], sum(bad)))
  expect_identical(out$evaluations$pch[bad], rep(4, sum(bad)))
  y <- ifelse(bad, Inf, apply(run$X, 1L, loss2))
  best <- cummin(y)
  best[!is.finite(best)] <- NA
  expect_identical(out$best$best_value, best)
})

test_that("the model slices are the fitted GPs through the best point", {
  local_device()
  prob <- bo_problem(function(x) list(value = loss2(x),
                                      cost = exp(2 * x[1] + x[2])),
                     c(0, 0), c(1, 1), budget = 30, maximize = FALSE)
  run <- bo_optimize(prob, policy_ei_pu_cc(), n_init = 5, seed = 2,
                     progress = FALSE)
  out <- plot(run, type = "model", n_grid = 31)
  # the best point: the smallest loss evaluated
  y <- apply(run$X, 1L, loss2)
  at <- run$X[which.min(y), ]
  expect_identical(unname(out$at), at)
  expect_identical(unique(out$objective$input), c("x1", "x2"))
  for (i in 1:2) {
    M <- matrix(at, 31, 2, byrow = TRUE)
    M[, i] <- seq(0, 1, length.out = 31)
    pf <- predict(out$models$f, M)
    pc <- predict(out$models$cost, M)
    o <- out$objective[out$objective$input == paste0("x", i), ]
    expect_identical(o$x, M[, i])
    # the objective is minimized: the GP of its negation, negated back
    expect_equal(o$mean, -pf$mean, tolerance = 1e-12)
    expect_equal(o$lower, -pf$mean - 2 * pf$sd, tolerance = 1e-12)
    expect_equal(o$upper, -pf$mean + 2 * pf$sd, tolerance = 1e-12)
    k <- out$cost[out$cost$input == paste0("x", i), ]
    expect_equal(k$cost, exp(pc$mean), tolerance = 1e-12)
    expect_equal(k$upper, exp(pc$mean + 2 * pc$sd), tolerance = 1e-12)
  }
  expect_identical(out$cost_source, "model")
  # the GP is the one fitted to the run's records: it nearly interpolates
  expect_equal(predict(out$models$f, run$X)$mean, run$value, tolerance = 1e-2)
  # a known cost: the cost function itself along the slices
  known <- bo_optimize(known_cost_problem(30), policy_ei(), n_init = 4,
                       seed = 1, progress = FALSE)
  kout <- plot(known, type = "model", n_grid = 11)
  expect_identical(kout$cost_source, "known")
  k1 <- kout$cost[kout$cost$input == "x1", ]
  M <- matrix(unname(kout$at), 11, 2, byrow = TRUE)
  M[, 1] <- seq(-5, 10, length.out = 11)
  expect_identical(k1$cost, apply(M, 1L, known$problem$cost))
  # a finite domain has no slices
  cand <- matrix(c(0, 0.3, 0.6, 1, 0.2, 0.9, 0.4, 0.7), ncol = 2)
  fin <- bo_optimize(bo_problem(loss2, candidates = cand, cost = 1,
                                budget = 4), policy_ei(), n_init = 3,
                     seed = 1, progress = FALSE)
  expect_error(plot(fin, type = "model"), class = "costbo_error_arg")
})

test_that("a typed space is sliced along its parameters", {
  local_device()
  sp <- bo_space(n = param_int(1, 6), rate = param_num(1e-3, 1, log = TRUE),
                 rule = param_cat(c("a", "b", "c")))
  g <- function(p) -(log10(p$rate) + 1.5)^2 - (p$n - 4)^2 / 8 +
    0.5 * (p$rule == "b")
  prob <- bo_problem(g, space = sp, cost = function(p) 0.5 + p$n / 6,
                     budget = 12)
  run <- bo_optimize(prob, policy_ei_pu(), n_init = 5, seed = 4,
                     progress = FALSE)
  out <- plot(run, type = "model", n_grid = 20)
  s <- summary(run)
  expect_identical(out$at, s$best_x)
  o <- out$objective
  expect_identical(unique(o$input), c("n", "rate", "rule"))
  # the integers 1..6, 20 rates on the log scale, the three levels
  expect_identical(o$x[o$input == "n"], as.double(1:6))
  expect_equal(o$x[o$input == "rate"], 10^seq(-3, 0, length.out = 20),
               tolerance = 1e-12)
  expect_identical(o$level[o$input == "rule"], c("a", "b", "c"))
  # the means: the GP at the encoded typed points, built here
  typed <- as.data.frame(s$best_x, stringsAsFactors = FALSE)[rep(1L, 3L), ]
  typed$rule <- c("a", "b", "c")
  U <- space_encode(sp, typed)
  r <- o[o$input == "rule", ]
  pf <- predict(out$models$f, U)
  expect_equal(r$mean, pf$mean, tolerance = 1e-12)
  expect_equal(r$upper - r$lower, 4 * pf$sd, tolerance = 1e-12)
  typed <- as.data.frame(s$best_x, stringsAsFactors = FALSE)[rep(1L, 6L), ]
  typed$n <- 1:6
  k <- out$cost[out$cost$input == "n", ]
  expect_equal(k$cost, 0.5 + (1:6) / 6, tolerance = 1e-12)
  expect_equal(out$objective$mean[o$input == "n"],
               predict(out$models$f, space_encode(sp, typed))$mean,
               tolerance = 1e-12)
})

test_that("the cost plot gives leave-one-out predictions of measured costs", {
  local_device()
  prob <- bo_problem(function(x) list(value = -loss2(x),
                                      cost = exp(2 * x[1] + x[2])),
                     c(0, 0), c(1, 1), budget = 40)
  run <- bo_optimize(prob, policy_ei_pu(), n_init = 5, seed = 6,
                     progress = FALSE)
  out <- plot(run, type = "cost")
  ev <- out$evaluations
  expect_identical(ev$cost, run$cost)
  cf <- coef(out$model)
  n <- length(run$cost)
  expect_gte(n, 6L)
  # dense solves on the other evaluations, with the model's coefficients
  for (i in seq_len(n)) {
    ref <- ref_predict(run$X[-i, ], log(run$cost[-i]), run$X[i, , drop = FALSE],
                       "matern52", cf$lengthscale, cf$outputscale, cf$noise,
                       cf$mean)
    s <- sqrt(ref$sd^2 + cf$noise)
    expect_equal(ev$predicted[i], exp(ref$mean), tolerance = 1e-8)
    expect_equal(c(ev$lower[i], ev$upper[i]), exp(ref$mean + c(-2, 2) * s),
                 tolerance = 1e-8)
  }
  expect_identical(ev$inside, run$cost >= ev$lower & run$cost <= ev$upper)
  expect_identical(out$coverage, mean(ev$inside))
  # a known cost: the costs along the run, no model
  known <- bo_optimize(known_cost_problem(30), policy_ei(), n_init = 4,
                       seed = 1, progress = FALSE)
  kout <- plot(known, type = "cost")
  expect_null(kout$model)
  expect_identical(kout$evaluations$cost, known$cost)
  expect_identical(kout$coverage, NA_real_)
})

test_that("the posterior plot of one input gives the posterior and the acquisition", {
  local_device()
  prob <- bo_problem(function(x) list(value = sin(6 * x), cost = exp(x)),
                     lower = 0, upper = 1, budget = 8)
  run <- bo_optimize(prob, policy_ei_pu(), n_init = 3, seed = 2,
                     progress = FALSE)
  out <- plot(run, type = "posterior", n_grid = 25, main = "one input")
  g <- seq(0, 1, length.out = 25)
  expect_identical(out$grid, g)
  expect_equal(out$acquisition, bo_acquisition(run, g), tolerance = 1e-12)
  expect_identical(out$maximizer, g[which.max(out$acquisition)])
  m <- plot(run, type = "model", n_grid = 25)
  expect_equal(out$objective$mean, m$objective$mean, tolerance = 1e-12)
  expect_equal(out$cost$cost, m$cost$cost, tolerance = 1e-12)
  known <- bo_problem(function(x) sin(6 * x), lower = 0, upper = 1,
                      cost = function(x) 1 + x, budget = 6)
  run2 <- bo_optimize(known, policy_pbgi(0.01), n_init = 3, seed = 2,
                      progress = FALSE)
  expect_identical(plot(run2, type = "posterior", n_grid = 11)$cost$cost,
                   1 + seq(0, 1, length.out = 11))
  two <- bo_optimize(known_cost_problem(20), policy_ei(), n_init = 3,
                     seed = 1, progress = FALSE)
  expect_error(plot(two, type = "posterior"), class = "costbo_error_arg")
})

test_that("a session plots as the run of its records", {
  local_device()
  prob <- bo_problem(function(x) NA, c(0, 0), c(1, 1),
                     cost = function(x) 1 + x[1], budget = 10,
                     maximize = FALSE)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.8, 0.2, 0.5))
  init$value <- apply(as.matrix(init), 1L, loss2)
  s <- bo_session(prob, policy_ei_pu(), initial = init)
  x <- bo_ask(s)
  s <- bo_tell(s, x, value = loss2(as.double(x)))
  out <- plot(s)
  v <- c(init$value, loss2(as.double(x)))
  expect_identical(out$evaluations$value, v)
  expect_identical(out$best$best_value, cummin(v))
})

test_that("benchmark plots return their curves and take graphical parameters", {
  local_device()
  probs <- list(lo = bo_problem(loss2, c(0, 0), c(1, 1), cost = 1, budget = 6,
                                maximize = FALSE))
  bm <- bo_benchmark(probs, list(EI = policy_ei(), R = policy_random()),
                     reps = 3, n_init = 3, n_grid = 4, progress = FALSE)
  out <- plot(bm, y = "best_value", main = "a loss", xlab = "evaluations",
              col = c("black", "red"), ylim = c(0.5, 2))
  df <- as.data.frame(bm)
  e <- out[out$policy == "R" & out$cost == max(out$cost), ]
  v <- df$best_value[df$policy == "R" & df$cost == max(df$cost)]
  expect_equal(e$mean, mean(v), tolerance = 1e-12)
  expect_equal(c(e$lower, e$upper), as.vector(stats::t.test(v)$conf.int),
               tolerance = 1e-12)
  expect_identical(unique(out$measure), "best_value")
  expect_identical(nrow(out), 2L * 4L)
  expect_error(plot(bm, "regret", 0.9, "lo", TRUE, "x"),
               class = "costbo_error_arg")
})
