# The optimization loop: budget accounting, reproducibility, checkpoints,
# failures and cost learning.

test_that("known-cost runs spend the budget on points that fit, to the last one", {
  prob <- known_cost_problem(budget = 40)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
  df <- as.data.frame(run)
  # the initial design is charged by default, and every evaluation fits
  expect_true(all(df$within_budget))
  expect_lte(run$spent, prob$budget)
  expect_equal(run$spent, sum(df$cost))
  expect_equal(df$cumulative_cost, cumsum(df$cost))
  expect_match(run$stop_reason, "^budget spent: no point fits")
  # the run ended only when nothing fits: the cheapest point of the box (a
  # linear cost: a corner, found here on a grid) costs more than what is
  # left, though the policy's own last proposal was dearer still
  g <- as.matrix(expand.grid(seq(-5, 10, length.out = 61),
                             seq(0, 15, length.out = 61)))
  cheapest <- min(apply(g, 1L, prob$cost))
  expect_gt(cheapest, prob$budget - run$spent)
  expect_gt(run$declined$cost, prob$budget - run$spent)
  expect_equal(run$declined$cost, prob$cost(run$declined$x))
  # when the policy's point did not fit, the point it valued most among
  # those that fit was evaluated, and it fitted
  fb <- which(df$budget_feasible %in% 1)
  expect_gt(length(fb), 0L)
  expect_true(all(df$cost[fb] <= prob$budget - c(0, df$cumulative_cost)[fb]))
  s <- summary(run)
  expect_identical(s$over_budget, integer(0))
  expect_false(any(grepl("over budget", capture.output(print(s)))))
  # the rule "stop" with a free design (the papers' protocol): the run ends
  # at the first proposal that does not fit
  st <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE,
                    charge_initial = FALSE, budget_rule = "stop")
  ds <- as.data.frame(st)
  bo <- ds$phase == "bo"
  expect_equal(st$spent, sum(ds$cost[bo]))
  expect_identical(st$stop_reason, "budget spent: the next point would not fit")
  expect_gt(st$spent + st$declined$cost, prob$budget)
  expect_equal(ds$cumulative_cost[!bo], rep(0, sum(!bo)))
  expect_identical(sum(!bo), 6L)
  expect_false("budget_feasible" %in% names(ds))
})

test_that("charging the initial design counts it against the budget", {
  prob <- known_cost_problem(budget = 80)
  run <- bo_optimize(prob, policy_ei(), seed = 2, charge_initial = TRUE,
                     progress = FALSE)
  df <- as.data.frame(run)
  expect_equal(run$spent, sum(df$cost))
  expect_lte(run$spent, 80)
  init_cost <- sum(df$cost[df$phase == "initial"])
  expect_equal(run$budget_start, 80 - init_cost)
})

test_that("the default design has 2 (k + 1) points and a quarter of a charged budget", {
  # Branin with a linear cost between 1 and 21 (cost_linear()): 6 points
  # cost more than a quarter of 100
  prob <- known_cost_problem(budget = 100)
  run <- bo_optimize(prob, policy_ei(), seed = 2, progress = FALSE,
                     max_evaluations = 1)
  df <- as.data.frame(run)
  init <- df$phase == "initial"
  k <- sum(init)
  # the first k points of the full design under the same seed, ended when
  # the next would take the design past 25 with the 2 points a model needs
  set.seed(2)
  full <- costbo:::problem_design(prob, 6L)$x
  cost <- apply(full, 1L, prob$cost)
  expect_equal(unname(as.matrix(df[init, c("x1", "x2")])),
               unname(full[seq_len(k), , drop = FALSE]))
  expected_k <- max(2L, sum(cumsum(cost) <= 25))
  expect_identical(k, expected_k)
  expect_lt(k, 6L)
  expect_gt(sum(cost[seq_len(k + 1L)]), 25)
  # uncharged, or of a given size, the design has all its points
  free <- bo_optimize(prob, policy_ei(), seed = 2, progress = FALSE,
                      max_evaluations = 1, charge_initial = FALSE)
  expect_identical(sum(as.data.frame(free)$phase == "initial"), 6L)
  given <- bo_optimize(prob, policy_ei(), seed = 2, progress = FALSE,
                       max_evaluations = 1, n_init = 5)
  expect_identical(sum(as.data.frame(given)$phase == "initial"), 5L)
  # a typed space counts its parameters, not its one-hot columns
  sp <- bo_space(a = param_num(0, 1), b = param_cat(c("x", "y", "z")))
  typed <- bo_problem(function(p) p$a, space = sp, cost = 1, budget = 100)
  expect_identical(costbo:::default_n_init(typed), 6L)
  # a charged design never starts a point the budget cannot pay for: with
  # 15, the second point does not fit, and one point is no model
  tight <- known_cost_problem(budget = 15)
  e <- expect_silent(bo_optimize(tight, policy_ei(), seed = 2,
                                 progress = FALSE, n_init = 6))
  de <- as.data.frame(e)
  expect_identical(nrow(de), 1L)
  expect_lte(e$spent, 15)
  expect_gt(e$spent + cost[2], 15)
  expect_match(e$stop_reason, "fewer points than a model needs")
})

test_that("with a measured cost the crossing evaluation is recorded and marked", {
  # the rule "stop": a measured cost is not checked before it is paid
  prob <- measured_cost_problem(budget = 12)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 3, progress = FALSE,
                     charge_initial = FALSE, budget_rule = "stop")
  df <- as.data.frame(run)
  n <- nrow(df)
  expect_identical(run$stop_reason, "budget spent")
  expect_false(df$within_budget[n])
  expect_true(all(df$within_budget[-n]))
  expect_gt(df$cumulative_cost[n], 12)
  expect_lte(df$cumulative_cost[n - 1L], 12)
  s <- summary(run)
  expect_identical(s$n_within_budget, sum(df$phase == "bo") - 1L)
  expect_identical(s$over_budget, n)
  printed <- capture.output(print(s))
  expect_match(printed[grepl("evaluations:", printed)],
               sprintf("%d initial, %d within budget after them, 1 over budget \\(#%d\\), 0 failed",
                       sum(df$phase == "initial"), s$n_within_budget, n))
})

test_that("a measured cost starts only what the cost model says fits", {
  prob <- measured_cost_problem(budget = 12)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 3, progress = FALSE)
  df <- as.data.frame(run)
  expect_match(run$stop_reason, "^budget spent: no point fits.*probability 0.9")
  # the run's final log-cost GP (fitted to every evaluation) gives no
  # point of a fine grid probability 0.9 of fitting in what is left
  # (the rule's candidates are scrambled Sobol points: allow a hair)
  g <- as.matrix(expand.grid(seq(-5, 10, length.out = 41),
                             seq(0, 15, length.out = 41)))
  p <- predict(run$models$cost, g)
  left <- prob$budget - run$spent
  fit <- stats::pnorm((log(left) - p$mean) / p$sd)
  expect_lt(max(fit), 0.95)
  # every evaluation but possibly the last fits, and the true costs of
  # the points it no longer started exceed what is left
  expect_true(all(df$within_budget[-nrow(df)]))
  expect_gt(min(exp(2 * (g[, 1] + 5) / 15)), 0)
  # a lower probability spends at least as much
  lo <- bo_optimize(prob, policy_ei_pu(), seed = 3, progress = FALSE,
                    budget_prob = 0.5)
  expect_gte(lo$spent, min(run$spent, prob$budget) - 1e-9 - 3)
  expect_error(bo_optimize(prob, policy_ei_pu(), budget_prob = 1),
               "`budget_prob`", class = "costbo_error_arg")
  expect_error(bo_optimize(prob, policy_ei_pu(), budget_rule = "never"),
               "`budget_rule`", class = "costbo_error_arg")
})

test_that("set.seed() and seed reproduce runs exactly", {
  prob <- measured_cost_problem(budget = 8)
  set.seed(123)
  before <- .Random.seed
  a <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE)
  # `seed` leaves the caller's generator as it was
  expect_identical(.Random.seed, before)
  b <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE)
  expect_identical(run_frame(a), run_frame(b))
  set.seed(5)
  c1 <- bo_optimize(prob, policy_random(), progress = FALSE)
  set.seed(5)
  c2 <- bo_optimize(prob, policy_random(), progress = FALSE)
  expect_identical(run_frame(c1), run_frame(c2))
})

test_that("a run resumed from its checkpoint equals an uninterrupted run", {
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  prob <- measured_cost_problem(budget = 10)
  full <- bo_optimize(prob, policy_q1(), seed = 6, progress = FALSE)
  part <- bo_optimize(prob, policy_q1(), seed = 6, max_evaluations = 3,
                      checkpoint = f, progress = FALSE)
  expect_identical(part$stop_reason, "maximum number of evaluations reached")
  expect_true(file.exists(f))
  # the global RNG moves on in between, as it would in a new R session
  set.seed(99)
  runif(10)
  resumed <- bo_resume(f, max_evaluations = 1000, progress = FALSE)
  expect_identical(run_frame(resumed), run_frame(full))
  expect_identical(resumed$stop_reason, full$stop_reason)
  expect_error(bo_resume(tempfile()), class = "costbo_error_arg")
})

test_that("with an unknown cost the log-cost GP steers EI-PU to cheap regions", {
  # cost exp(4 x1) on [0, 1]^2 varies 55-fold; the objective is flat-ish
  prob <- bo_problem(function(x) list(value = sin(3 * x[2]) + 0.3 * x[1],
                                      cost = exp(4 * x[1])),
                     lower = c(0, 0), upper = c(1, 1), budget = 15)
  # (the policies' own choices: a free design and the rule "stop")
  pu <- bo_optimize(prob, policy_ei_pu(), seed = 7, max_evaluations = 10,
                    charge_initial = FALSE, budget_rule = "stop",
                    progress = FALSE)
  ei <- bo_optimize(prob, policy_ei(), seed = 7, max_evaluations = 10,
                    charge_initial = FALSE, budget_rule = "stop",
                    progress = FALSE)
  dpu <- as.data.frame(pu)
  dei <- as.data.frame(ei)
  expect_false(is.null(pu$models$cost))
  expect_lt(mean(dpu$cost[dpu$phase == "bo"]), mean(dei$cost[dei$phase == "bo"]))
  expect_lt(mean(dpu$x1[dpu$phase == "bo"]), 0.5)
})

test_that("PBGI-D halves lambda after an evaluation that beats its index", {
  prob <- known_cost_problem(budget = 120)
  # (the rule "stop": a budget-feasible step keeps the diagnostics of the
  # policy's own proposal)
  run <- bo_optimize(prob, policy_pbgi_d(lambda = 2), seed = 8,
                     charge_initial = FALSE, budget_rule = "stop",
                     progress = FALSE)
  df <- as.data.frame(run)
  bo <- which(df$phase == "bo")
  expect_gt(length(bo), 3L)
  # the reference's rule, recomputed from the recorded run: after step k,
  # lambda halves iff the best value so far (step k included) > index_k
  best_after <- cummax(df$value)[bo]
  fired <- best_after > df$acquisition[bo]
  expect_true(any(fired) && any(!fired))
  lam <- 2 * cumprod(c(1, ifelse(fired, 0.5, 1)))[seq_along(bo)]
  expect_identical(df$lambda[bo], lam)
  # stop_rule is the Pandora rule at the proposal: best before >= index
  best_before <- cummax(df$value)[bo - 1L]
  expect_identical(df$stop_rule[bo] == 1, best_before >= df$acquisition[bo])
})

test_that("the Pandora rule can stop a PBGI run (cost-per-sample setting)", {
  prob <- known_cost_problem(budget = 500)
  run <- bo_optimize(prob, policy_pbgi(lambda = 5), seed = 9,
                     pandora_stop = TRUE, progress = FALSE)
  expect_identical(run$stop_reason, "Pandora stopping rule")
  expect_lt(run$spent, 500)
})

test_that("an objective that fails never loses the paid evaluations", {
  f <- function(x) {
    if (x[1] > 0.6) stop("simulation diverged")
    if (x[2] > 0.9) return(NA)
    sin(5 * x[1]) + x[2]
  }
  prob <- bo_problem(f, c(0, 0), c(1, 1), cost = 1, budget = 12)
  # the run ends at the first failure, says so, and keeps everything paid
  expect_warning(run <- bo_optimize(prob, policy_ucb(), seed = 10,
                                    progress = FALSE),
                 "stopped after", class = "costbo_warning_failed")
  df <- as.data.frame(run)
  expect_match(conditionMessage(tryCatch(
    bo_optimize(prob, policy_ucb(), seed = 10, progress = FALSE),
    costbo_warning_failed = function(w) w)),
    sprintf("after %d evaluations", nrow(df)))
  bad <- df$status == "error"
  expect_true(any(bad))
  expect_match(run$stop_reason, "failed")
  expect_true(all(df$x1[bad] > 0.6 | df$x2[bad] > 0.9))
  expect_true(all(df$message[bad] %in% c("simulation diverged",
    "the objective returned NA, not a finite number")))
  expect_true(all(is.finite(df$value[!bad])))
  # skipping failures carries on with the successful points only
  skip <- bo_optimize(prob, policy_ucb(), seed = 10, on_error = "skip",
                      progress = FALSE)
  ds <- as.data.frame(skip)
  expect_gt(nrow(ds), nrow(df))
  expect_true(sum(ds$status == "ok") > sum(df$status == "ok"))
  # a measured cost that is not positive is a failure too
  neg <- bo_problem(function(x) list(value = x[1], cost = -1), 0, 1,
                    budget = 3)
  expect_warning(r <- bo_optimize(neg, policy_ei(), seed = 1,
                                  progress = FALSE),
                 class = "costbo_warning_failed")
  expect_match(r$stop_reason, "failed at an initial point")
  expect_match(as.data.frame(r)$message[1], "positive")
})

test_that("finite domains with an explicit prior run over the candidates", {
  # the Theorem 1 flavour: cheap low-variance points and one expensive,
  # uncertain point
  K <- 6
  cand <- matrix(0:(K + 1), ncol = 1)
  S <- diag(c(1e-6, rep(0.01, K), 4))
  truth <- c(0, rep(0.05, K), 3)
  prob <- bo_problem(function(x) truth[x + 1], candidates = cand,
                     cost = function(x) if (x == K + 1) 1.5 else 0.2,
                     budget = 1.6, prior = list(mean = rep(0, K + 2), cov = S))
  run <- bo_optimize(prob, policy_ei(), n_init = 0,
                     initial = data.frame(x1 = 0, value = 0), seed = 1,
                     charge_initial = FALSE, progress = FALSE)
  df <- as.data.frame(run)
  expect_true(all(df$x1 %in% cand[, 1]))
  expect_true(all(df$within_budget))
  # EI goes for the uncertain point first
  expect_identical(df$x1[2], K + 1)
})

test_that("bo_optimize() rejects bad arguments, naming them", {
  prob <- known_cost_problem()
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  bad(bo_optimize("prob", policy_ei()))
  bad(bo_optimize(prob, "ei"))
  bad(bo_optimize(prob, policy_ei(), n_init = -1))
  bad(bo_optimize(prob, policy_ei(), n_init = 1))
  bad(bo_optimize(prob, policy_ei(), seed = "a"))
  bad(bo_optimize(prob, policy_ei(), max_evaluations = 1.5))
  bad(bo_optimize(prob, policy_ei(), on_error = "retry"))
  bad(bo_optimize(prob, policy_ei(), progress = NA))
  bad(bo_optimize(prob, policy_ei(), checkpoint = 3))
  bad(bo_optimize(prob, policy_ei(), initial = data.frame(x1 = 1)))
  bad(bo_optimize(prob, policy_ei(), initial = data.frame(x1 = 20, x2 = 1,
                                                          value = 1)))
  bad(policy_ucb(-1))
  bad(policy_pbgi(0))
  bad(policy_pbgi_d(decay = 1))
  expect_snapshot(bo_optimize(prob, policy_ei(), on_error = "retry"),
                  error = TRUE)
})

test_that("runs print, summarize and convert as documented", {
  run <- bo_optimize(known_cost_problem(30), policy_ei(), seed = 11,
                     progress = FALSE)
  expect_output(expect_invisible(print(run)), "Bayesian optimization run: EI")
  s <- summary(run)
  expect_s3_class(s, "summary.bo_run")
  expect_output(print(s), "regret")
  expect_equal(s$regret, s$optimum - s$best_value)
  df <- as.data.frame(run)
  expect_identical(names(df)[1:9], c("x1", "x2", "value", "cost",
                                     "cumulative_cost", "within_budget",
                                     "phase", "status", "message"))
  expect_true("acquisition" %in% names(df))
  expect_equal(s$best_value, max(df$value))
})

test_that("model settings reach the objective's GP", {
  prob <- known_cost_problem(30)
  run <- bo_optimize(prob, policy_ei(), seed = 12, max_evaluations = 2,
                     gp_args = list(kernel = "se", estimate = "fixed",
                                  lengthscale = c(3, 4), outputscale = 100,
                                  noise = 1e-4),
                     progress = FALSE)
  cf <- coef(run$models$f)
  expect_identical(run$models$f$kernel, "se")
  expect_equal(unname(cf$lengthscale), c(3, 4))
  expect_equal(cf$outputscale, 100)
  expect_error(bo_optimize(prob, policy_ei(), gp_args = list(X = 1)),
               class = "costbo_error_arg")
  expect_error(bo_optimize(prob, policy_ei(), gp_args = "se"),
               class = "costbo_error_arg")
})

test_that("gp_args$cost settings reach the log-cost GP", {
  prob <- measured_cost_problem(budget = 30)
  band <- list(noise_floor = 1e-4, noise_ceiling = 1e-3)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                     gp_args = c(band, list(cost = c(band, kernel = "se"))),
                     progress = FALSE)
  expect_identical(run$models$cost$kernel, "se")
  expect_identical(run$models$f$kernel, "matern52")
  # noise variances on the standardized scale of each GP
  nc <- coef(run$models$cost)$noise / run$models$cost$ysd^2
  nf <- coef(run$models$f)$noise / run$models$f$ysd^2
  for (v in c(nc, nf)) expect_true(v >= 1e-4 * (1 - 1e-8) && v <= 1e-3 * (1 + 1e-8))
  # without gp_args$cost the cost GP keeps its defaults
  run0 <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                      gp_args = band, progress = FALSE)
  expect_identical(run0$models$cost$kernel, "matern52")
  expect_error(bo_optimize(prob, policy_ei_pu(), gp_args = list(cost = list(X = 1))),
               "gp_args\\$cost", class = "costbo_error_arg")
  expect_error(bo_optimize(prob, policy_ei_pu(), gp_args = list(cost = "se")),
               class = "costbo_error_arg")
})

test_that("an interrupt during the initial design keeps what was evaluated", {
  pr <- known_cost_problem(budget = 10)
  f <- pr$objective
  n <- 0L
  pr$objective <- function(x) {
    n <<- n + 1L
    if (n == 3L) {
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    f(x)
  }
  run <- bo_optimize(pr, policy_ei(), n_init = 5, seed = 1,
                     charge_initial = FALSE, progress = FALSE)
  expect_equal(run$stop_reason, "interrupted")
  df <- as.data.frame(run)
  expect_equal(nrow(df), 2L)
  expect_equal(df$value, apply(as.matrix(df[, c("x1", "x2")]), 1L,
                               branin_max))
})

test_that("on Dropwave the default model interpolates and EI does not vanish", {
  # the state of the issue: Dropwave (seed 2) after 6 steps of EI-PU-CC
  prob <- test_problem("dropwave", seed = 2)
  expect_false(prob$noisy)
  set.seed(1)
  U <- sobol_points(4096, 2)
  X <- sweep(sweep(U, 2, prob$upper - prob$lower, "*"), 2, prob$lower, "+")
  check_state <- function(st) {
    st <- costbo:::state_fit(st)
    fit <- st$models$f
    y <- st$value[st$status == "ok"]
    cf <- coef(fit)
    expect_lte(cf$noise / var(y), 1e-3 * (1 + 1e-8))
    expect_gte(cf$noise / var(y), 1e-4 * (1 - 1e-8))
    p <- predict(fit, X)
    ei <- ref_ei(p$mean, p$sd, max(y))
    expect_gte(max(ei), 1e-3 * sd(y))
    # the policy's acquisition in this fitted state uses the same incumbent
    expect_equal(st$policy$acquisition(st, X[1:20, ]),
                 acq_evaluate(fit, X[1:20, ], "ei_pu_cc",
                              cost_model = st$models$cost, best = max(y),
                              nu = min(1, (st$budget - st$spent) /
                                         st$budget_start)),
                 tolerance = 1e-10)
    fit
  }
  run <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                     progress = FALSE)
  check_state(run)
  # the old default (free noise for both GPs) on the same problem: the GP
  # calls the best observation noise and EI vanishes everywhere
  free <- list(noise_floor = 1e-6, noise_ceiling = 10)
  old <- bo_optimize(prob, policy_ei_pu_cc(), seed = 2, max_evaluations = 6,
                     progress = FALSE, gp_args = c(free, list(cost = free)))
  ofit <- costbo:::state_fit(old)$models$f
  expect_gt(coef(ofit)$noise, coef(ofit)$outputscale)
  expect_lt(max(acq_evaluate(ofit, X, "ei", best = max(old$value))),
            1e-6 * sd(old$value))
  # the default model on those same 12 points
  s <- bo_session(prob, policy_ei_pu_cc(),
                  initial = data.frame(x1 = old$X[, 1], x2 = old$X[, 2],
                                       value = old$value, cost = old$cost))
  check_state(s)
})

test_that("a deterministic run holds both GPs' noise in the band; user settings win", {
  prob <- measured_cost_problem(budget = 30)
  expect_false(prob$noisy)
  band_of <- function(fit) c(fit$noise_floor, fit$noise_ceiling)
  std_noise <- function(fit) coef(fit)$noise / fit$ysd^2
  run <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                     progress = FALSE)
  for (fit in list(run$models$f, run$models$cost)) {
    expect_identical(band_of(fit), c(1e-4, 1e-3))
    expect_gte(std_noise(fit), 1e-4 * (1 - 1e-8))
    expect_lte(std_noise(fit), 1e-3 * (1 + 1e-8))
  }
  # the objective's settings leave the cost GP's band alone, and the reverse
  for (m in list(list(noise_floor = 1e-6), list(estimate = "ml"),
                 list(noise_ceiling = 0.5))) {
    r <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                     progress = FALSE, gp_args = m)
    expect_identical(band_of(r$models$f),
                     c(if (is.null(m$noise_floor)) 1e-6 else m$noise_floor,
                       if (is.null(m$noise_ceiling)) 10 else m$noise_ceiling))
    expect_identical(band_of(r$models$cost), c(1e-4, 1e-3))
  }
  r <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                   progress = FALSE, gp_args = list(cost = list(noise_floor = 1e-5)))
  expect_identical(band_of(r$models$f), c(1e-4, 1e-3))
  expect_identical(band_of(r$models$cost), c(1e-5, 10))
  # a fixed noise is the user's
  r <- bo_optimize(prob, policy_ei_pu(), seed = 3, max_evaluations = 3,
                   progress = FALSE, gp_args = list(noise = 0.5))
  expect_equal(coef(r$models$f)$noise, 0.5)
  # a noisy objective estimates its noise with gp_fit()'s defaults
  f <- branin_max
  nz <- bo_problem(function(x) list(value = f(x) + stats::rnorm(1),
                                    cost = exp(2 * (x[1] + 5) / 15)),
                   c(-5, 0), c(10, 15), budget = 30, noise = TRUE)
  r <- bo_optimize(nz, policy_ei_pu(), seed = 3, max_evaluations = 3,
                   progress = FALSE)
  expect_identical(band_of(r$models$f), c(1e-6, 10))
  expect_identical(band_of(r$models$cost), c(1e-4, 1e-3))
  # the warm start carries the band from step to step: the fits converge in
  # fewer evaluations than cold fits of the same data
  st <- costbo:::state_fit(run)
  cold <- gp_fit(st$models$f$X, st$models$f$y, lower = prob$lower,
                 upper = prob$upper, noise_floor = 1e-4, noise_ceiling = 1e-3)
  expect_lt(st$models$f$nfun, cold$nfun)
  expect_equal(st$models$f$log_posterior, cold$log_posterior, tolerance = 1e-4)
})

test_that("runs on noisy and deterministic problems reproduce exactly", {
  for (prob in list(test_problem("branin", noise_sd = 1, budget = 8),
                    test_problem("branin", budget = 8))) {
    a <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE)
    b <- bo_optimize(prob, policy_ei_pu_cc(), seed = 4, progress = FALSE)
    expect_identical(run_frame(a), run_frame(b))
    set.seed(6)
    c1 <- bo_optimize(prob, policy_ei(), max_evaluations = 4, progress = FALSE)
    set.seed(6)
    c2 <- bo_optimize(prob, policy_ei(), max_evaluations = 4, progress = FALSE)
    expect_identical(run_frame(c1), run_frame(c2))
  }
})

# --- PBGI: the scale of lambda and PBGI-D's timing ----------------------------

test_that("PBGI runs are unchanged by f -> a f + b when lambda -> a lambda", {
  lo <- c(-5, 0)
  up <- c(10, 15)
  prob <- function(a, b) {
    bo_problem(function(x) a * branin_max(x) + b, lo, up,
               cost = cost_linear(lo, up), budget = 100)
  }
  for (pol in list(function(k) policy_pbgi(lambda = 0.05 * k),
                   function(k) policy_pbgi_d(lambda = 2 * k))) {
    r1 <- as.data.frame(bo_optimize(prob(1, 0), pol(1), seed = 11,
                                    progress = FALSE))
    r2 <- as.data.frame(bo_optimize(prob(1000, 7), pol(1000), seed = 11,
                                    progress = FALSE))
    expect_gt(sum(r1$phase == "bo"), 5L)
    expect_identical(dim(r1), dim(r2))
    expect_equal(r2$x1, r1$x1, tolerance = 1e-6)
    expect_equal(r2$x2, r1$x2, tolerance = 1e-6)
    expect_equal(r2$value, 1000 * r1$value + 7, tolerance = 1e-7)
    expect_equal(r2$acquisition, 1000 * r1$acquisition + 7, tolerance = 1e-6)
    expect_equal(r2$lambda, 1000 * r1$lambda)
  }
  # lambda is in the objective's units: the same lambda on the rescaled
  # objective is a different (less exploratory) policy
  r3 <- as.data.frame(bo_optimize(prob(1000, 7), policy_pbgi(lambda = 0.05),
                                  seed = 11, progress = FALSE))
  r1 <- as.data.frame(bo_optimize(prob(1, 0), policy_pbgi(lambda = 0.05),
                                  seed = 11, progress = FALSE))
  n <- min(nrow(r1), nrow(r3))
  bo <- which(r1$phase[seq_len(n)] == "bo")
  expect_gt(max(abs(r3$x1[bo] - r1$x1[bo]) + abs(r3$x2[bo] - r1$x2[bo])),
            0.01)
})

test_that("PBGI-D's lambda sequence matches the reference's rule on a short run", {
  # the measured-cost problem (PBGI-U), decay factor 0.3
  prob <- measured_cost_problem(budget = 25)
  run <- bo_optimize(prob, policy_pbgi_d(lambda = 10, decay = 0.3), seed = 12,
                     progress = FALSE)
  df <- as.data.frame(run)
  bo <- which(df$phase == "bo")
  expect_gte(length(bo), 5L)
  # an independent loop over the recorded steps, as BayesianOptimizer does:
  # decay before proposing if the previous step set need_lmbda_update
  lam <- 10
  need <- FALSE
  best <- max(df$value[seq_len(bo[1] - 1L)])
  expected <- numeric(length(bo))
  for (k in seq_along(bo)) {
    if (need) lam <- lam * 0.3
    expected[k] <- lam
    best <- max(best, df$value[bo[k]])
    need <- df$acquisition[bo[k]] < best
  }
  expect_gte(sum(diff(expected) < 0), 2L)
  expect_equal(df$lambda[bo], expected)
})

test_that("the size arguments of bo_optimize() are capped before anything is paid", {
  paid <- 0
  prob <- bo_problem(function(x) { paid <<- paid + 1; sum(x^2) },
                     lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) 1, budget = 3)
  e <- expect_error(bo_optimize(prob, policy_ei(), n_init = 1001,
                                progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e),
               "`n_init` must be a single whole number in [0, 1000]",
               fixed = TRUE)
  e <- expect_error(bo_optimize(prob, policy_ei(), workers = 65,
                                clock = "simulated", progress = FALSE),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e),
               "`workers` must be a single whole number in [1, 64]",
               fixed = TRUE)
  expect_identical(paid, 0)
  run <- bo_optimize(prob, policy_ei(), workers = 64, clock = "simulated",
                     n_init = 2, seed = 1, progress = FALSE)
  expect_s3_class(run, "bo_run")
})

test_that("the default initial design fits a small candidate set", {
  cand <- matrix(c(0, 0.3, 0.6, 1), ncol = 1)
  prob <- bo_problem(function(x) -(x - 0.5)^2, candidates = cand, cost = 1,
                     budget = 4)
  # 2 (d + 1) = 4 would be every candidate: one is left for the policy
  expect_identical(costbo:::default_n_init(prob), 3L)
  run <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE,
                     charge_initial = FALSE)
  df <- as.data.frame(run)
  expect_identical(sum(df$phase == "initial"), 3L)
  # then the last candidate, and a deterministic objective is not paid for
  # again at a candidate it has seen
  expect_identical(sum(df$phase == "bo"), 1L)
  expect_identical(sort(df$x1), sort(cand[, 1]))
  expect_identical(run$stop_code, "exhausted")
  # a noisy objective may be evaluated again
  noisy <- bo_problem(function(x) -(x - 0.5)^2 + rnorm(1, sd = 0.01),
                      candidates = cand, cost = 1, budget = 4, noise = TRUE)
  run <- bo_optimize(noisy, policy_ei(), seed = 1, progress = FALSE,
                     charge_initial = FALSE)
  expect_identical(run$stop_code, "budget")
  expect_identical(nrow(as.data.frame(run)), 7L)
})

test_that("one step engine decides for the sequential and the asynchronous loop", {
  decide <- costbo:::step_decide
  prob <- bo_problem(function(x) sin(6 * x[1]) + x[2], lower = c(0, 0),
                     upper = c(1, 1), cost = function(x) 1 + x[1],
                     budget = 10)
  init <- data.frame(x1 = c(0.1, 0.5, 0.9), x2 = c(0.2, 0.8, 0.4))
  init$value <- sin(6 * init$x1) + init$x2
  st <- costbo:::state_fit(bo_session(prob, policy_ei(), initial = init))
  set.seed(1)
  p <- costbo:::state_propose(st)
  cost <- 1 + p$step$x[1]
  # fits: evaluate the policy's point at its price
  d <- decide(st, p)
  expect_identical(d$action, "evaluate")
  expect_identical(d$step$x, p$step$x)
  expect_identical(d$cost, cost)
  # committed budget that leaves too little: the budget rule's feasible
  # replacement when one fits, else stop, or wait while evaluations run
  left <- st$budget - st$spent
  d <- decide(st, p, committed = left - 1.05)
  expect_identical(d$action, "evaluate")
  expect_lte(d$cost, 1.05)
  d <- decide(st, p, committed = left - 0.5)
  expect_identical(d[c("action", "code")], list(action = "stop",
                                                code = "budget"))
  expect_match(d$reason, "^budget spent: no point fits")
  expect_identical(decide(st, p, committed = left - 0.5, busy = TRUE)$action,
                   "wait")
  # a known cost that fails at the point: a failed evaluation, unpaid
  bad <- st
  bad$problem$cost <- function(x) if (x[1] > 0) stop("no price") else 1
  d <- decide(bad, p)
  expect_identical(d$action, "fail")
  expect_identical(d$ev[c("status", "cost", "failed")],
                   list(status = "error", cost = NA_real_, failed = TRUE))
  expect_match(d$ev$message, "no price")
  # the table of stop reasons names every code the engine stops with
  expect_true(all(c("budget", "max_evaluations", "pandora",
                    "repeated_failure", "exhausted", "interrupted") %in%
                    names(costbo:::stop_reasons)))
})

test_that("a budget below one evaluation is refused (known cost) or said (measured)", {
  prob <- bo_problem(function(x) sum(x), lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) 5 + x[1], budget = 3)
  expect_error(bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE),
               "cheapest of 514 points of the domain costs 5",
               class = "costbo_error_arg")
  expect_error(bo_ask(bo_session(prob, policy_ei())),
               class = "costbo_error_budget")
  # a measured cost is known once paid: the run has its first evaluation
  # and a warning
  prob2 <- bo_problem(function(x) list(value = sum(x), cost = 5 + x[1]),
                      lower = c(0, 0), upper = c(1, 1), budget = 3)
  expect_warning(run <- bo_optimize(prob2, policy_ei(), seed = 1,
                                    progress = FALSE),
                 "smaller than the cost of one evaluation",
                 class = "costbo_warning_budget")
  expect_length(run$value, 1L)
  expect_identical(run$stop_code, "budget")
})

test_that("a run with no natural end stops at costbo's cap, with a warning", {
  # a measured cost never valid: nothing is charged, EI goes on
  prob <- bo_problem(function(x) list(value = sum(sin(3 * x)), cost = NA),
                     lower = c(0, 0), upper = c(1, 1), budget = 5)
  old <- options(costbo.max_run_evaluations = 3L)
  on.exit(options(old), add = TRUE)
  expect_warning(run <- bo_optimize(prob, policy_ei(), seed = 1,
                                    on_error = "skip", progress = FALSE),
                 "cap of 3 evaluations", class = "costbo_warning_cap")
  expect_identical(run$stop_code, "max_evaluations")
  expect_identical(sum(run$phase == "bo"), 3L)
  expect_identical(run$spent, 0)
  # a cost-aware policy cannot go on: the run ends saying why
  run2 <- suppressWarnings(bo_optimize(prob, policy_ei_pu(), seed = 1,
                                       on_error = "skip", progress = FALSE))
  expect_identical(run2$stop_code, "cost_failed")
  expect_match(run2$stop_reason, "measured cost was never valid: none of the 6")
  # an explicit max_evaluations is the user's: no warning
  expect_no_warning(bo_optimize(prob, policy_ei(), seed = 1,
                                on_error = "skip", progress = FALSE,
                                max_evaluations = 2))
})

test_that("a known cost written in R is called once per step", {
  # a policy that does not call the cost itself (EI); a budget every point
  # fits in, so that the budget rule keeps the policy's proposals
  calls <- 0L
  cost <- function(x) {
    calls <<- calls + 1L
    1 + x[1]
  }
  prob <- bo_problem(function(x) sin(3 * x[1]) + cos(2 * x[2]),
                     lower = c(0, 0), upper = c(1, 1), cost = cost,
                     budget = 30)
  for (rule in c("feasible", "stop")) for (charge in c(TRUE, FALSE)) {
    calls <- 0L
    run <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 1,
                       max_evaluations = 5, budget_rule = rule,
                       charge_initial = charge, progress = FALSE)
    df <- as.data.frame(run)
    expect_identical(c(sum(df$phase == "initial"), sum(df$phase == "bo")),
                     c(4L, 5L))
    expect_equal(df$cost, 1 + df$x1, tolerance = 1e-15)
    # 2 (d + 1) = 6 synthetic points priced once each before paying
    # (check_run_ready()), then one price per evaluation: 4 + 5
    expect_identical(calls, 6L + 4L + 5L,
                     label = sprintf("calls (%s, charge_initial = %s)", rule,
                                     charge))
  }
})
