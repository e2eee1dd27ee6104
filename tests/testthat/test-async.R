# Asynchronous runs (async.R): the simulated clock, the budget with pending
# costs, the kriging-believer fantasies, faults, interrupts and resume, and
# runs on a real future plan.

# The evaluations running at time t (launched before t, done after it).
running_at <- function(df, t) sum(df$t_launch <= t & df$t_done > t)

# The rows of the evaluations pending when row j was launched.
pending_at <- function(df, j) {
  which(df$launch < df$launch[j] & df$t_done > df$t_launch[j])
}

# Branin with the cheap linear cost 1 + (x1 + 5) / 15, from 1 to 2.
cheap_branin <- function(budget) {
  lo <- c(-5, 0)
  up <- c(10, 15)
  bo_problem(branin_max, lo, up, cost = cost_linear(lo, up, b = 1),
             budget = budget)
}

# Branin's box [-5, 10] x [0, 15]: the first n Sobol points (rows), and a
# fitted state of `policy` on `prob` from the first `n_rec` of them, each
# recorded with observe(x) = list(value, cost).
branin_design <- function(n) {
  sobol_points(n, 2) %*% diag(c(15, 15)) + matrix(c(-5, 0), n, 2, byrow = TRUE)
}
recorded_state <- function(prob, policy, X, n_rec, observe) {
  st <- costbo:::new_state(prob, policy, FALSE)
  for (i in seq_len(n_rec)) {
    o <- observe(X[i, ])
    st <- costbo:::state_record(st, costbo:::new_step(X[i, ]), o$value,
                                o$cost, "bo")
  }
  costbo:::state_fit(st)
}

test_that("one virtual worker gives the sequential run, evaluation for evaluation", {
  for (case in list(
    list(test_problem("dropwave", seed = 1), policy_ei_pu_cc()),
    list(known_cost_problem(30), policy_ei_pu()),
    list(measured_cost_problem(10), policy_pbgi()))) {
    s <- bo_optimize(case[[1]], case[[2]], seed = 3, progress = FALSE)
    a <- bo_optimize(case[[1]], case[[2]], seed = 3, progress = FALSE,
                     clock = "simulated")
    expect_identical(a$X, s$X)
    expect_identical(a$value, s$value)
    expect_identical(a$cost, s$cost)
    expect_identical(a$stop_code, s$stop_code)
    df <- as.data.frame(a)
    # one worker: back to back, each evaluation taking its cost
    expect_identical(df$launch, seq_len(nrow(df)))
    expect_equal(df$t_done, cumsum(df$cost), tolerance = 1e-12)
    expect_equal(a$clock, sum(df$cost), tolerance = 1e-12)
  }
})

test_that("a known cost written in R is called once per step on k workers", {
  calls <- 0L
  cost <- function(x) {
    calls <<- calls + 1L
    1 + x[1]
  }
  prob <- bo_problem(function(x) sin(3 * x[1]) + cos(2 * x[2]),
                     lower = c(0, 0), upper = c(1, 1), cost = cost,
                     budget = 30)
  for (k in 1:2) for (charge in c(TRUE, FALSE)) {
    calls <- 0L
    run <- bo_optimize(prob, policy_ei(), n_init = 4, seed = 1,
                       max_evaluations = 5, charge_initial = charge,
                       workers = k, clock = "simulated", progress = FALSE)
    df <- as.data.frame(run)
    expect_identical(nrow(df), 9L)
    # the 6 synthetic points of check_run_ready(), then one price per
    # evaluation launched
    expect_identical(calls, 6L + 9L,
                     label = sprintf("calls (k = %d, charge_initial = %s)",
                                     k, charge))
  }
})

test_that("the simulated clock runs k evaluations at once, each for its cost", {
  prob <- test_problem("dropwave", seed = 2)
  run <- bo_optimize(prob, policy_ei_pu(), workers = 4, clock = "simulated",
                     seed = 5, progress = FALSE)
  again <- bo_optimize(prob, policy_ei_pu(), workers = 4, clock = "simulated",
                       seed = 5, progress = FALSE)
  expect_identical(run_frame(again), run_frame(run))
  df <- as.data.frame(run)
  expect_equal(df$t_done - df$t_launch, df$cost, tolerance = 1e-12)
  # records in finishing order; every launch once
  expect_false(is.unsorted(df$t_done))
  expect_setequal(df$launch, seq_len(nrow(df)))
  # at most 4 at a time, and one at a time on each worker
  expect_lte(max(vapply(df$t_launch, running_at, 0, df = df)), 4L)
  expect_identical(sort(unique(df$worker)), 1:4)
  for (w in 1:4) {
    o <- df[df$worker == w, ]
    o <- o[order(o$t_launch), ]
    expect_true(all(utils::head(o$t_done, -1L) <= o$t_launch[-1L] + 1e-12))
  }
  # a worker is given a new point as soon as it is free while the run goes
  # on: every launch after the first four is at a finishing time
  late <- df$launch > 4L
  expect_true(all(df$t_launch[late] %in% df$t_done))
  expect_equal(run$clock, max(df$t_done))
  expect_output(print(run), "4 workers; the last evaluation finished at")
})

test_that("no two pending points coincide, and pending points are not re-proposed", {
  prob <- cheap_branin(20)
  run <- bo_optimize(prob, policy_ei(), workers = 4, clock = "simulated",
                     seed = 2, progress = FALSE)
  df <- as.data.frame(run)
  X <- as.matrix(df[, c("x1", "x2")])
  bo <- which(df$phase == "bo")
  for (j in bo) {
    pend <- pending_at(df, j)
    if (!length(pend)) next
    d <- sqrt(colSums((t(X[pend, , drop = FALSE]) - X[j, ])^2))
    expect_gt(min(d), 1e-3)
  }
})

test_that("a launch fits the budget with the pending costs (known cost)", {
  prob <- cheap_branin(15)
  run <- bo_optimize(prob, policy_ei_pu_cc(), workers = 3, clock = "simulated",
                     seed = 7, progress = FALSE)
  df <- as.data.frame(run)
  expect_identical(run$stop_code, "budget")
  expect_true(all(df$within_budget))
  expect_lte(run$spent, run$budget)
  for (j in which(df$phase == "bo")) {
    # finished or pending at its launch: every earlier launch
    before <- df$launch < df$launch[j]
    used <- sum(df$cost[before & df$phase == "bo"]) + df$cost[j]
    expect_lte(used, run$budget * (1 + 1e-12))
  }
})

test_that("pending points are kriging-believer fantasies", {
  set.seed(1)
  prob <- known_cost_problem(200)
  X <- branin_design(8)
  st <- recorded_state(prob, policy_ei_pu_cc(), X, 6L, function(x) {
    list(value = branin_max(x), cost = prob$cost(x))
  })
  pend <- lapply(7:8, function(i) {
    list(step = costbo:::new_step(X[i, ]), bound = prob$cost(X[i, ]))
  })
  st$pending <- pend
  fs <- costbo:::async_fantasy_state(st)
  m <- st$models$f
  mu <- predict(m, X[7:8, ], sd = FALSE)$mean
  # the fantasized values are the posterior means
  expect_equal(fs$value[7:8], mu, tolerance = 1e-12)
  # observations equal to the posterior mean leave the posterior mean
  # unchanged everywhere (the innovations are 0) and only shrink the
  # variance, most at the pending points
  Xt <- sobol_points(20, 2) %*% diag(c(15, 15)) +
    matrix(c(-5, 0), 20, 2, byrow = TRUE)
  p0 <- predict(m, Xt)
  p1 <- predict(fs$models$f, Xt)
  expect_equal(p1$mean, p0$mean, tolerance = 1e-8)
  expect_true(all(p1$sd <= p0$sd * (1 + 1e-10)))
  expect_lt(mean(p1$sd / p0$sd), 1)
  # and the conditioned GP is the GP of the same hyperparameters (coef(),
  # in the user's units) factored afresh on the data and the fantasies
  cf <- coef(m)
  ref <- gp_fit(X[1:8, ], c(st$value, mu), lower = prob$lower,
                upper = prob$upper, kernel = m$kernel, estimate = "fixed",
                lengthscale = cf$lengthscale, outputscale = cf$outputscale,
                noise = cf$noise, mean = cf$mean)
  expect_equal(p1$mean, predict(ref, Xt)$mean, tolerance = 1e-8)
  expect_equal(p1$sd, predict(ref, Xt)$sd, tolerance = 1e-8)
  # the posterior at a pending point collapses: its EI nearly vanishes
  expect_lt(max(predict(fs$models$f, X[7:8, ])$sd),
            0.05 * min(predict(m, X[7:8, ])$sd))
  ei0 <- acq_evaluate(m, X[7:8, ], "ei", best = max(st$value))
  ei1 <- acq_evaluate(fs$models$f, X[7:8, ], "ei", best = max(fs$value))
  expect_true(all(ei1 < 1e-3 * pmax(ei0, 1e-300) | ei1 < 1e-12))
  # the remaining budget counts the pending costs
  expect_equal(costbo:::state_remaining(fs),
               st$budget - st$spent - sum(prob$cost(X[7, ]), prob$cost(X[8, ])),
               tolerance = 1e-12)
  # so does the cost-cooling exponent of EI-PU-CC: EI / cost^nu with
  # nu = remaining / budget at the start
  nu <- costbo:::state_remaining(fs) / fs$budget_start
  x0 <- matrix(c(2, 3), 1)
  a <- policy_ei_pu_cc()$acquisition(fs, x0)
  ref <- function(nu) {
    acq_evaluate(fs$models$f, x0, "ei_pu_cc", cost = prob$cost,
                 best = max(fs$value), nu = nu)
  }
  expect_equal(a, ref(nu), tolerance = 1e-10)
  expect_false(isTRUE(all.equal(a, ref((st$budget - st$spent) /
                                         st$budget_start))))
})

test_that("a measured cost's pending evaluation counts its posterior mean cost", {
  set.seed(1)
  prob <- measured_cost_problem(20)
  st <- recorded_state(prob, policy_ei_pu(), branin_design(6), 6L,
                       prob$objective)
  x <- c(1, 7)
  p <- predict(st$models$cost, matrix(x, 1))
  b <- costbo:::async_bound(st, costbo:::new_step(x), NA_real_, "bo")
  expect_equal(b, exp(p$mean + p$sd^2 / 2), tolerance = 1e-12)
  # and its log-cost GP is conditioned on its mean there
  st$pending <- list(list(step = costbo:::new_step(x), bound = b))
  fs <- costbo:::async_fantasy_state(st)
  expect_equal(predict(fs$models$cost, matrix(x, 1))$mean, p$mean,
               tolerance = 1e-6)
  expect_lt(predict(fs$models$cost, matrix(x, 1))$sd, 0.1 * p$sd)
  # a free initial point counts nothing
  expect_identical(costbo:::async_bound(st, costbo:::new_step(x), NA_real_,
                                        "initial"), 0)
})

test_that("every policy for a box, a finite set or a typed space runs asynchronously", {
  box <- cheap_branin(10)
  pols <- list(policy_ei(), policy_ei_pu(), policy_ei_pu_cc(), policy_q1(),
               policy_ucb(), policy_pbgi(), policy_pbgi_d(), policy_random(),
               policy_bmsei(steps = 2, fantasies = 3),
               policy_bmsei(steps = 2, path = TRUE, fantasies = 3),
               policy_cmdp_rollout(horizon = 2, n_samples = 8), policy_kg(),
               policy_kg_rollout(n_cand = 30))
  for (pol in pols) {
    run <- bo_optimize(box, pol, workers = 3, clock = "simulated", seed = 1,
                       progress = FALSE, n_init = 4)
    expect_identical(run$stop_code, "budget", info = pol$label)
    expect_gt(sum(run$phase == "bo"), 2L)
    expect_lte(run$spent, run$budget)
  }
  cand <- as.matrix(expand.grid(seq(-5, 10, length.out = 9),
                                seq(0, 15, length.out = 9)))
  fin <- bo_problem(branin_max, candidates = cand,
                    cost = function(x) 1 + (x[1] + 5) / 15, budget = 10)
  run <- bo_optimize(fin, policy_ei_pu(), workers = 3, clock = "simulated",
                     seed = 1, progress = FALSE)
  expect_identical(anyDuplicated(run$X), 0L)
  sp <- bo_space(a = param_int(1, 6), b = param_num(0, 1),
                 c = param_cat(c("x", "y")))
  typed <- bo_problem(function(p) p$a * p$b - (p$c == "x"), space = sp,
                      cost = function(p) 1 + p$a / 6, budget = 10)
  run <- bo_optimize(typed, policy_ei_pu(), workers = 3, clock = "simulated",
                     seed = 1, progress = FALSE)
  expect_identical(run$stop_code, "budget")
  expect_identical(anyDuplicated(run$X), 0L)
  df <- as.data.frame(run)
  expect_true(all(df$a %in% 1:6))
  expect_true(all(df$c %in% c("x", "y")))
})

test_that("asynchronous runs are refused before anything is paid where they cannot run", {
  paid <- 0
  f <- function(x) {
    paid <<- paid + 1
    sum(x)
  }
  prob <- bo_problem(f, c(0, 0), c(1, 1), cost = 1, budget = 5)
  expect_error(bo_optimize(prob, policy_ei(), workers = 0), "`workers`",
               class = "costbo_error_arg")
  expect_error(bo_optimize(prob, policy_ei(), workers = 2, clock = "wall"),
               "`clock`", class = "costbo_error_arg")
  cvs <- test_problem_cvs("hartmann3", budget = 10)
  expect_error(bo_optimize(cvs, policy_ucb_cvs(), workers = 2,
                           clock = "simulated"),
               "`workers`", class = "costbo_error_arg")
  skip_if_not_installed("future")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old))
  expect_error(bo_optimize(prob, policy_ei(), workers = 2),
               "number of workers of the current future plan",
               class = "costbo_error_arg")
  expect_identical(paid, 0)
})

test_that("a failure with on_error = 'stop' ends the run after the pending evaluations", {
  f <- function(x) {
    if (x[1] > 0.8 && x[2] < 0.5) stop("out of range")
    -sum((x - 0.3)^2)
  }
  prob <- bo_problem(f, c(0, 0), c(1, 1), cost = function(x) 1 + x[1],
                     budget = 30)
  expect_warning(
    run <- bo_optimize(prob, policy_ei(), workers = 3, clock = "simulated",
                       seed = 1, n_init = 8, progress = FALSE),
    "out of range", class = "costbo_warning_failed")
  df <- as.data.frame(run)
  expect_identical(run$stop_code, "objective_failed")
  k <- which(df$status == "error")[1L]
  # what was pending when it failed is recorded after it; nothing launched
  # after it finished
  expect_true(all(df$t_launch[-seq_len(k)] < df$t_done[k]))
  expect_identical(sort(df$launch), seq_len(nrow(df)))
})

test_that("an interrupt keeps what finished, and the run resumes with its pending points", {
  prob <- cheap_branin(15)
  # (a free design, so that the budget buys more than 14 evaluations)
  full <- bo_optimize(prob, policy_ei_pu(), workers = 3, clock = "simulated",
                      seed = 11, progress = FALSE, charge_initial = FALSE)
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  n <- 0L
  obj <- prob$objective
  stopper <- prob
  stopper$objective <- function(x) {
    n <<- n + 1L
    if (n == 14L) {
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    obj(x)
  }
  part <- bo_optimize(stopper, policy_ei_pu(), workers = 3,
                      clock = "simulated", seed = 11, progress = FALSE,
                      checkpoint = f, charge_initial = FALSE)
  expect_identical(part$stop_code, "interrupted")
  expect_lt(length(part$value), length(full$value))
  # the checkpoint holds the pending points
  saved <- costbo:::read_checkpoint(f)
  expect_length(saved$state$pending, 2L)
  # (the objective given again is not the interrupting one saved)
  expect_warning(res <- bo_resume(f, problem = prob, progress = FALSE),
                 class = "costbo_warning_checkpoint")
  expect_identical(res$X, full$X)
  expect_identical(res$value, full$value)
  expect_identical(res$stop_code, full$stop_code)
  expect_equal(res$clock, full$clock)
})

test_that("bo_benchmark() runs policies on virtual workers", {
  prob <- list(dw = function(r) test_problem("dropwave", seed = r,
                                             budget = 15))
  bm1 <- bo_benchmark(prob, list(EI = policy_ei_pu()), reps = 2,
                      virtual_workers = 1, progress = FALSE)
  bm4 <- bo_benchmark(prob, list(EI = policy_ei_pu()), reps = 2,
                      virtual_workers = 4, progress = FALSE)
  seq1 <- bo_benchmark(prob, list(EI = policy_ei_pu()), reps = 2,
                       progress = FALSE)
  # one virtual worker is the sequential run
  expect_identical(bm1$evaluations$value, seq1$evaluations$value)
  expect_true(all(is.na(seq1$replications$clock)))
  expect_true(all(bm4$replications$clock < 0.5 * bm1$replications$clock))
  # one virtual worker: the clock advances by each evaluation's cost
  for (r in 1:2) {
    e <- bm1$evaluations[bm1$evaluations$rep == r &
                           bm1$evaluations$phase == "bo", ]
    expect_equal(diff(e$t_done), diff(e$cumulative_cost), tolerance = 1e-9)
  }
  expect_false(anyNA(bm4$evaluations$t_done))
  # the simulated trace does not depend on the back end that runs it
  skip_on_cran()
  bm4p <- bo_benchmark(prob, list(EI = policy_ei_pu()), reps = 2,
                       virtual_workers = 4, backend = "parallel",
                       processes = 2, progress = FALSE)
  expect_identical(bm4p$evaluations, bm4$evaluations)
  expect_identical(bm4p$replications$clock, bm4$replications$clock)
})

test_that("a real future plan runs evaluations in parallel and survives a lost worker", {
  skip_on_cran()
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  killer <- function(x) {
    if (x[1] > 7) tools::pskill(Sys.getpid(), tools::SIGKILL)
    -(x[2] - 5)^2 - (x[1] - 3)^2
  }
  prob <- bo_problem(killer, lower = c(0, 0), upper = c(10, 10),
                     cost = function(x) 1 + x[1] / 10, budget = 10)
  # (a design of explicit size: all of it that fits in the budget, not the
  # quarter of the budget of the default design)
  run <- bo_optimize(prob, policy_ei_pu(), workers = 2, seed = 4,
                     progress = FALSE, on_error = "skip", n_init = 6)
  df <- as.data.frame(run)
  lost <- grepl("the worker failed", df$message)
  # the sobol design has points with x1 > 7: their workers died
  expect_true(any(lost))
  expect_true(all(df$x1[lost] > 7))
  expect_true(all(df$status[!lost] == "ok"))
  # a lost worker's known cost is charged; nothing else is lost
  expect_true(all(df$cost[lost] == 1 + df$x1[lost] / 10))
  expect_identical(sort(df$launch), seq_len(nrow(df)))
  expect_lte(run$spent, run$budget)
  expect_identical(sort(unique(df$worker)), 1:2)
  # the objective's globals reach the workers
  g <- 3
  shifted <- function(x) -(x[1] - g)^2 - x[2]^2
  prob2 <- bo_problem(shifted, c(0, 0), c(5, 5), cost = 1, budget = 4)
  run2 <- bo_optimize(prob2, policy_ei(), workers = 2, seed = 1,
                      progress = FALSE)
  expect_true(all(run2$status == "ok"))
  # each evaluation has its own stream drawn from R's generator: a noisy
  # objective gives the same values under the same seed
  noisy <- bo_problem(function(x) -sum(x^2) + stats::rnorm(1, sd = 0.1),
                      c(0, 0), c(1, 1), cost = 1, budget = 4, noise = TRUE)
  # (a free design: its 6 points, not proposals whose order depends on
  # which worker finished first)
  a <- bo_optimize(noisy, policy_ei(), workers = 2, seed = 9,
                   progress = FALSE, charge_initial = FALSE)
  b <- bo_optimize(noisy, policy_ei(), workers = 2, seed = 9,
                   progress = FALSE, charge_initial = FALSE)
  expect_identical(a$value[order(a$launch)][1:6], b$value[order(b$launch)][1:6])
})

test_that("an interrupt records the evaluations that finished on workers, and resume pays for none again", {
  skip_on_cran()
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f), add = TRUE)
  calls <- 0L
  price <- function(x) {
    calls <<- calls + 1L
    # a slow proposal while an evaluation is pending: the evaluation
    # finishes on its worker (0.05 s) before the interrupt
    if (calls == 16L) {
      Sys.sleep(1.5)
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    1 + x[1]
  }
  obj <- function(x) {
    Sys.sleep(0.05)
    -sum((x - 0.4)^2)
  }
  prob <- bo_problem(obj, c(0, 0), c(1, 1), cost = price, budget = 12)
  # bo_problem() prices the centre of the box once: count the run's calls
  calls <- 0L
  part <- bo_optimize(prob, policy_ei(), workers = 2, seed = 3,
                      progress = FALSE, checkpoint = f)
  expect_identical(part$stop_code, "interrupted")
  dfp <- as.data.frame(part)
  # every launched evaluation finished before the interrupt and is recorded
  expect_identical(sort(dfp$launch), seq_len(nrow(dfp)))
  expect_gte(sum(dfp$phase == "bo"), 1L)
  saved <- costbo:::read_checkpoint(f)
  expect_length(saved$state$pending, 0L)
  expect_length(saved$state$value, nrow(dfp))
  # its finishing time is when the worker finished, not when it was
  # collected after the slow proposal
  last <- dfp[which.max(dfp$launch), ]
  expect_lt(last$t_done - last$t_launch, 1)
  calls <- -1e6L
  res <- bo_resume(f, problem = prob, progress = FALSE)
  df <- as.data.frame(res)
  expect_identical(res$stop_code, "budget")
  # no point paid twice: the interrupted run's rows come back unchanged and
  # every point is evaluated once
  expect_equal(df[seq_len(nrow(dfp)), c("x1", "x2", "value", "cost")],
               dfp[, c("x1", "x2", "value", "cost")], ignore_attr = TRUE)
  expect_false(anyDuplicated(df[, c("x1", "x2")]) > 0L)
  expect_equal(res$spent, sum(df$cost))
  expect_lte(res$spent, res$budget)
})

test_that("a real run interrupted with pending evaluations launches them again on resume", {
  skip_on_cran()
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f), add = TRUE)
  # evaluations launched after the 13th pricing are slow (the workers see
  # the flag file), so that some still run at the interrupt
  slow <- tempfile()
  on.exit(unlink(slow), add = TRUE)
  calls <- 0L
  price <- function(x) {
    calls <<- calls + 1L
    if (calls == 13L) file.create(slow)
    # the 16th pricing: after the synthetic check (6) and the initial
    # design (6), at a proposal made while evaluations are pending
    if (calls == 16L) {
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    1 + x[1]
  }
  obj <- function(x) {
    Sys.sleep(if (file.exists(slow)) 2 else 0.05)
    -sum((x - 0.4)^2)
  }
  prob <- bo_problem(obj, c(0, 0), c(1, 1), cost = price, budget = 12)
  # bo_problem() prices the centre of the box once: count the run's calls
  calls <- 0L
  part <- bo_optimize(prob, policy_ei(), workers = 2, seed = 3,
                      progress = FALSE, checkpoint = f)
  expect_identical(part$stop_code, "interrupted")
  saved <- costbo:::read_checkpoint(f)
  pend <- saved$state$pending
  expect_gte(length(pend), 1L)
  unlink(slow)
  launched <- vapply(pend, function(e) e$launch, numeric(1))
  calls <- -1e6L # no more interrupts (the problem given again sees it)
  res <- bo_resume(f, problem = prob, progress = FALSE)
  df <- as.data.frame(res)
  expect_identical(res$stop_code, "budget")
  # the pending points were evaluated, under their launch numbers
  expect_true(all(launched %in% df$launch))
  for (e in pend) {
    row <- df[df$launch == e$launch, ]
    expect_equal(c(row$x1, row$x2), e$step$x)
  }
  expect_identical(sort(df$launch), seq_len(nrow(df)))
  expect_true(all(df$status == "ok"))
  expect_lte(res$spent, res$budget)
})

test_that("a charged design of measured cost launches one point until a cost is seen", {
  prob <- bo_problem(function(x) list(value = -sum((x - 0.3)^2),
                                      cost = 1 + x[1]),
                     lower = c(0, 0), upper = c(1, 1), budget = 40)
  run <- bo_optimize(prob, policy_ei_pu(), workers = 3, clock = "simulated",
                     seed = 3, progress = FALSE, max_evaluations = 2)
  df <- as.data.frame(run)
  init <- df[df$phase == "initial", ]
  first <- which.min(init$launch)
  # nothing else launched before the first design point finished
  expect_true(all(init$t_launch[-first] >= init$t_done[first]))
  # then the rest of the design, at the costs seen,
  # within a quarter of the budget once two points are in
  expect_gte(nrow(init), 2L)
  expect_lte(sum(init$cost), 0.25 * 40 + max(init$cost))
  expect_true(all(df$t_launch[df$phase == "bo"] >= min(init$t_done)))
})
