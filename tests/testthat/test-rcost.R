# A known cost written in R, called back from C (src/rcall.c, CB_COST_R).

# cost_linear(0, 1, a, b) written in R with C's arithmetic (known_cost_at()
# in src/acq.c: the coordinates summed in order in double, a + b * sum / d,
# gradient b / d): on the unit box the closure of problem_cost_closure()
# passes u unchanged (0 + u * 1) and the gradient times 1.
linear_in_r <- function(a, b, grad = TRUE) {
  force(a)
  force(b)
  force(grad)
  function(x) {
    s <- 0
    for (k in seq_along(x)) s <- s + x[k]
    v <- a + b * s / length(x)
    if (grad) attr(v, "gradient") <- rep(b / length(x), length(x))
    v
  }
}

rc_objective <- function(x) {
  z <- c(15 * x[1] - 5, 15 * x[2])
  -((z[2] - 5.1 / (4 * pi^2) * z[1]^2 + 5 / pi * z[1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(z[1]) + 10) / 50 + 0.1 * sum(x[-(1:2)])
}

# A fitted state on [0, 1]^d with n random evaluations and the cost
# cost_linear(0, 1, 1, 4), ready for the policy's propose().
rc_state <- function(policy, d = 2L, n = 8L, seed = 1L, budget = 20) {
  set.seed(seed)
  X <- matrix(runif(n * d), n)
  init <- as.data.frame(X)
  names(init) <- paste0("x", seq_len(d))
  init$value <- apply(X, 1L, rc_objective)
  prob <- bo_problem(rc_objective, lower = rep(0, d), upper = rep(1, d),
                     cost = cost_linear(rep(0, d), rep(1, d), 1, 4),
                     budget = budget)
  st <- costbo:::state_fit(bo_session(prob, policy, initial = init))
  st$memory <- costbo:::policy_init(policy, st)
  st
}

with_cost <- function(st, cost) {
  st$problem$cost <- cost
  st
}

propose_at <- function(policy, st, seed = 11L) {
  set.seed(seed)
  policy$propose(st)
}

rc_policies <- function() {
  list(
    bmsei_path = policy_bmsei(steps = 3, path = TRUE),
    bmsei_tree = policy_bmsei(steps = 2, fantasies = 3),
    cmdp = policy_cmdp_rollout(horizon = 2, n_samples = 8),
    kg = policy_kg(n_nodes = 4, n_cand = 20),
    rolling = policy_kg_rollout(max_horizon = 3, n_nodes = 3, n_cand = 20),
    ei_pu = policy_ei_pu(),
    q1 = policy_q1())
}

test_that("an R cost with its gradient gives cost_linear()'s proposals in every lookahead policy", {
  skip_on_cran()
  pols <- rc_policies()
  for (nm in names(pols)) {
    pol <- pols[[nm]]
    st <- rc_state(pol)
    a <- propose_at(pol, st)
    b <- propose_at(pol, with_cost(st, linear_in_r(1, 4)))
    expect_identical(b$x, a$x, label = nm)
    expect_identical(b$info$acquisition, a$info$acquisition, label = nm)
    # without the gradient attribute: forward differences in C; the cost is
    # linear, so they are exact to rounding (~1e-10 relative) and the
    # maximizers end within 1e-4 of the same point
    c <- propose_at(pol, with_cost(st, linear_in_r(1, 4, grad = FALSE)))
    expect_equal(c$x, a$x, tolerance = 1e-4, label = nm)
  }
  # three inputs (the sum is accumulated in C's order)
  pol <- policy_ei_pu()
  st <- rc_state(pol, d = 3L, n = 10L)
  expect_identical(propose_at(pol, with_cost(st, linear_in_r(1, 4)))$x,
                   propose_at(pol, st)$x)
})

test_that("an acquisition's maximizer climbs with secant gradients of an R cost without one, and polishes with differences", {
  skip_on_cran()
  # EI-PU in 6-D: with the gradient attribute each L-BFGS-B evaluation is
  # one call; without it forward differences made it 7 (about 4 times the
  # calls in all). Climbing with secant gradients (exact for this affine
  # cost) and polishing each start with differences stays under twice.
  pol <- policy_ei_pu()
  st <- rc_state(pol, d = 6L, n = 20L)
  counted <- function(f) {
    force(f)
    function(x) {
      calls <<- calls + 1L
      f(x)
    }
  }
  calls <- 0L
  a <- propose_at(pol, with_cost(st, counted(linear_in_r(1, 4))))
  n_grad <- calls
  calls <- 0L
  b <- propose_at(pol, with_cost(st, counted(linear_in_r(1, 4, grad = FALSE))))
  n_plain <- calls
  expect_lt(n_plain, 2 * n_grad)
  # the polish differences every start's end (60 starts, 6 coordinates)
  expect_gt(n_plain - n_grad, 60L * 6L)
  expect_equal(b$x, a$x, tolerance = 1e-5)
  expect_equal(b$info$acquisition, a$info$acquisition, tolerance = 1e-9)
  # differences at every step, as before the secant climb
  calls <- 0L
  old <- options(costbo.secant_gradients = FALSE)
  on.exit(options(old))
  f <- propose_at(pol, with_cost(st, counted(linear_in_r(1, 4, grad = FALSE))))
  options(old)
  expect_gt(calls, 3 * n_grad)
  expect_equal(f$x, a$x, tolerance = 1e-5)
  # a curved cost: its tangent misses, so it is differenced where it
  # curves, and the maximum is that of the same cost with its gradient
  curved <- function(grad) {
    force(grad)
    function(x) {
      v <- 1 + sum(sin(3 * x)^2) + exp(x[6])
      if (grad) attr(v, "gradient") <- c(3 * sin(6 * x[1:5]), 3 * sin(6 * x[6]) + exp(x[6]))
      v
    }
  }
  a <- propose_at(pol, with_cost(st, curved(TRUE)))
  b <- propose_at(pol, with_cost(st, curved(FALSE)))
  expect_equal(b$info$acquisition, a$info$acquisition, tolerance = 1e-7)
})

test_that("acq_maximize() with a curved R cost reaches the grid's maximum at a stationary point", {
  skip_on_cran()
  set.seed(3)
  X <- matrix(runif(24), ncol = 2)
  fit <- gp_fit(X, sin(5 * X[, 1]) * cos(3 * X[, 2]) + X[, 2],
                lower = c(0, 0), upper = c(1, 1))
  costs <- list(function(x) 1 + 2 * sin(3 * x[, 1])^2 + exp(x[, 2]),
                function(x) 1 + 4 * x[, 1] * x[, 2] + x[, 2]^3)
  g <- seq(0, 1, length.out = 401)
  G <- as.matrix(expand.grid(g, g))
  for (cost in costs) {
    for (seed in 1:3) {
      set.seed(seed)
      m <- acq_maximize(fit, "ei_pu", cost = cost)
      grid_max <- max(acq_evaluate(fit, G, "ei_pu", cost = cost))
      expect_gte(m$value, grid_max)
      expect_lt(m$value, grid_max * (1 + 1e-3))
      # every coordinate is at a face or its derivative vanishes (to the
      # rounding of differenced costs)
      gr <- acq_evaluate(fit, rbind(m$x), "ei_pu", cost = cost, grad = TRUE)$grad
      free <- m$x > 0 & m$x < 1
      expect_true(all(abs(gr[free]) < 1e-4 * m$value))
    }
  }
})

test_that("the maximizer never calls an R cost at a non-finite point", {
  skip_on_cran()
  # L-BFGS-B steps to NaN from a corner where the 3-step path's gradient
  # has subnormal components (2e-322): with a cost in C that start is
  # worthless (the NaN value is the worst), and an R cost called there was
  # an error. This state and seed reach it on the 8th proposal.
  pol <- policy_bmsei(steps = 3, path = TRUE)
  st <- rc_state(pol, n = 20L, budget = 200)
  st$problem$cost <- cost_linear(c(0, 0), c(1, 1), 1, 20)
  calls <- 0L
  strict <- function(x) {
    calls <<- calls + 1L
    if (!all(is.finite(x))) stop("called at a non-finite point")
    v <- 1 + 20 * (x[1] + x[2]) / 2
    attr(v, "gradient") <- c(10, 10)
    v
  }
  set.seed(7)
  for (i in 1:8) {
    p <- pol$propose(with_cost(st, strict))
    expect_true(all(is.finite(unlist(p$x))))
  }
  expect_gt(calls, 1000L)
})

test_that("an R cost that throws inside C is a costbo error naming `cost`, and R goes on", {
  skip_on_cran()
  pols <- rc_policies()
  for (nm in names(pols)) {
    pol <- pols[[nm]]
    st <- rc_state(pol)
    calls <- 0L
    f <- linear_in_r(1, 4)
    throws <- function(x) {
      calls <<- calls + 1L
      if (calls >= 5L) stop("no price today")
      f(x)
    }
    e <- expect_error(propose_at(pol, with_cost(st, throws)),
                      class = "costbo_error_cost")
    expect_s3_class(e, "costbo_error_arg")
    expect_match(conditionMessage(e),
                 "^`cost` failed at the point \\(.*\\): no price today",
                 label = nm)
    expect_identical(e$parent$message, "no price today")
    expect_identical(calls, 5L)
    # the same state and seed afterwards: the proposal of cost_linear()
    expect_identical(propose_at(pol, with_cost(st, f))$x,
                     propose_at(pol, st)$x, label = nm)
  }
})

test_that("an R cost returning NA, -1, two numbers or a bad gradient is an error naming `cost`", {
  skip_on_cran()
  bad <- list(
    "not NA" = function(x) NA_real_,
    "not -1" = function(x) -1,
    "not 2 numbers" = function(x) c(1, 2),
    "not a character of length 1" = function(x) "1",
    "gradient.* not 2 numbers" = function(x) {
      structure(1 + x[1], gradient = c(NA, 1))
    })
  for (pol in list(policy_bmsei(steps = 2, path = TRUE), policy_kg(n_cand = 20),
                   policy_cmdp_rollout(horizon = 2, n_samples = 4),
                   policy_ei_pu())) {
    st <- rc_state(pol)
    for (msg in names(bad)) {
      # a bad gradient matters only where C asks for one (not Q1's tree)
      if (startsWith(msg, "gradient") && !identical(pol$name, "ei_pu")) next
      e <- expect_error(propose_at(pol, with_cost(st, bad[[msg]])),
                        class = "costbo_error_cost")
      expect_match(conditionMessage(e), paste0("^`cost` must .*", msg))
    }
    expect_identical(propose_at(pol, with_cost(st, linear_in_r(1, 4)))$x,
                     propose_at(pol, st)$x)
  }
})

test_that("a bad R cost is reported before anything is paid, naming `cost`", {
  skip_on_cran()
  for (pol in rc_policies()) {
    calls <- 0L
    prob <- bo_problem(function(x) {
      calls <<- calls + 1L
      rc_objective(x)
    }, lower = c(0, 0), upper = c(1, 1),
    cost = function(x) if (x[2] > 0.6) -1 else 1 + x[1], budget = 10)
    e <- expect_error(bo_optimize(prob, pol, seed = 1, progress = FALSE),
                      class = "costbo_error_arg")
    expect_match(conditionMessage(e), "^`cost` .*not -1")
    expect_identical(conditionCall(e)[[1L]], quote(bo_optimize))
    expect_identical(calls, 0L)
  }
  # a policy that never calls the cost from C keeps the old behaviour: the
  # step whose price fails is recorded, unpaid
  prob <- bo_problem(rc_objective, lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) if (x[2] > 0.6) -1 else 1 + x[1],
                     budget = 10)
  expect_warning(run <- bo_optimize(prob, policy_random(), seed = 1,
                                    progress = FALSE),
                 "cost function", class = "costbo_warning_failed")
  expect_identical(run$stop_code, "cost_failed")
})

test_that("a cost that fails in the run stops it with a message naming `cost`", {
  skip_on_cran()
  # the cost breaks once the initial design (4 points) is paid
  calls <- 0L
  prob <- bo_problem(function(x) {
    calls <<- calls + 1L
    rc_objective(x)
  }, lower = c(0, 0), upper = c(1, 1),
  cost = function(x) if (calls >= 4L) stop("meter broken") else 2,
  budget = 10)
  expect_warning(
    run <- bo_optimize(prob, policy_kg(n_nodes = 3, n_cand = 20), seed = 1,
                       n_init = 4, progress = FALSE),
    "meter broken", class = "costbo_warning_failed")
  expect_identical(run$stop_code, "cost_failed")
  expect_match(run$stop_reason, "`cost` failed at .*meter broken")
})

# A cost that is undefined (an error) where x1 > 0.8 and x2 > 0.5, in the
# corner of the objective's maximum.
rc_partial_cost <- function(x) {
  if (x[1] > 0.8 && x[2] > 0.5) stop("no price for this setting")
  1 + x[1]
}
rc_in_hole <- function(df) df$x1 > 0.8 & df$x2 > 0.5

test_that("with on_error = \"skip\" a cost failing in part of the box is a place every policy avoids, and the budget is spent", {
  skip_on_cran()
  obj <- function(x) -sum((x - 0.9)^2)
  prob <- bo_problem(obj, c(0, 0), c(1, 1), cost = rc_partial_cost,
                     budget = 12)
  pols <- c(rc_policies(), list(pbgi = policy_pbgi(), ei = policy_ei()))
  for (nm in names(pols)) {
    run <- bo_optimize(prob, pols[[nm]], seed = 1, n_init = 4,
                       progress = FALSE, on_error = "skip")
    df <- as.data.frame(run)
    expect_identical(run$stop_code, "budget", label = nm)
    expect_gt(run$spent, 0.8 * 12, label = nm)
    expect_lte(run$spent, 12, label = nm)
    # what was paid was priced where the cost is defined; a proposal in the
    # hole (only a policy that ignores the cost makes one) is recorded
    # failed and unpaid
    ok <- df$status == "ok"
    expect_false(any(rc_in_hole(df[ok, ])), label = nm)
    expect_true(all(is.na(df$cost[!ok]) | df$cost[!ok] == 0), label = nm)
    if (!identical(nm, "ei")) expect_true(all(ok), label = nm)
  }
  # on the simulated clock with two workers, as in a sequential run
  run <- bo_optimize(prob, policy_ei_pu(), seed = 1, n_init = 4,
                     workers = 2, clock = "simulated", progress = FALSE,
                     on_error = "skip")
  expect_identical(run$stop_code, "budget")
  expect_false(any(rc_in_hole(as.data.frame(run))))
})

test_that("with on_error = \"stop\" a cost failing where a policy asks for it ends the run as cost_failed, unpaid", {
  skip_on_cran()
  prob <- bo_problem(function(x) -sum((x - 0.9)^2), c(0, 0), c(1, 1),
                     cost = rc_partial_cost, budget = 12)
  expect_warning(
    run <- bo_optimize(prob, policy_ei_pu(), seed = 1, n_init = 4,
                       progress = FALSE),
    "no price for this setting", class = "costbo_warning_failed")
  expect_identical(run$stop_code, "cost_failed")
  expect_match(run$stop_reason, "^`cost` failed at the point .*policy asked")
  expect_true(all(as.data.frame(run)$status == "ok"))
})

test_that("a cost that fails everywhere, or returns bad values, is refused before anything is paid even with on_error = \"skip\"", {
  skip_on_cran()
  calls <- 0L
  obj <- function(x) {
    calls <<- calls + 1L
    -sum(x^2)
  }
  never <- bo_problem(obj, c(0, 0), c(1, 1),
                      cost = function(x) stop("no prices today"), budget = 5)
  e <- expect_error(bo_optimize(never, policy_ei_pu(), seed = 1,
                                progress = FALSE, on_error = "skip"),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "^`cost` must be a function that works")
  bad <- bo_problem(obj, c(0, 0), c(1, 1),
                    cost = function(x) if (x[2] > 0.6) -1 else 1, budget = 5)
  e <- expect_error(bo_optimize(bad, policy_ei_pu(), seed = 1,
                                progress = FALSE, on_error = "skip"),
                    class = "costbo_error_arg")
  expect_match(conditionMessage(e), "not -1")
  expect_identical(calls, 0L)
})

test_that("a finite problem with a prior and a partly failing cost runs with on_error = \"skip\"", {
  skip_on_cran()
  cand <- as.matrix(expand.grid(x1 = seq(0, 1, length.out = 6),
                                x2 = seq(0, 1, length.out = 6)))
  prob <- bo_problem(function(x) -sum((x - 0.9)^2), candidates = cand,
                     cost = rc_partial_cost, budget = 10,
                     prior = list(mean = rep(0, 36),
                                  cov = exp(-as.matrix(dist(cand))^2 / 0.2)))
  run <- bo_optimize(prob, policy_pbgi(), seed = 1, n_init = 2,
                     progress = FALSE, on_error = "skip")
  df <- as.data.frame(run)
  expect_identical(run$stop_code, "budget")
  expect_false(any(rc_in_hole(df[df$status == "ok", ])))
})

test_that("an interrupt inside an R cost unwinds from C and R goes on", {
  skip_on_cran()
  pol <- policy_bmsei(steps = 2, path = TRUE)
  st <- rc_state(pol)
  calls <- 0L
  f <- linear_in_r(1, 4)
  interrupts <- function(x) {
    calls <<- calls + 1L
    if (calls == 5L) {
      signalCondition(structure(class = c("interrupt", "condition"),
                                list(message = "", call = NULL)))
    }
    f(x)
  }
  out <- tryCatch(propose_at(pol, with_cost(st, interrupts)),
                  interrupt = function(e) "interrupted")
  expect_identical(out, "interrupted")
  expect_identical(calls, 5L)
  expect_identical(propose_at(pol, with_cost(st, f))$x,
                   propose_at(pol, st)$x)
})

test_that("bo_optimize() with each lookahead policy and an R cost stays in budget", {
  skip_on_cran()
  cost <- function(x) exp(x[1]) * (1 + x[2]^2)
  for (nm in c("bmsei_path", "bmsei_tree", "cmdp", "kg", "rolling")) {
    pol <- rc_policies()[[nm]]
    prob <- bo_problem(rc_objective, lower = c(0, 0), upper = c(1, 1),
                       cost = cost, budget = 8)
    run <- bo_optimize(prob, pol, seed = 3, n_init = 4, progress = FALSE,
                       charge_initial = FALSE)
    df <- as.data.frame(run)
    bo <- df[df$phase == "bo", ]
    expect_gt(nrow(bo), 1L, label = nm)
    expect_identical(run$stop_code, "budget", label = nm)
    expect_lte(sum(bo$cost), 8, label = nm)
    expect_equal(bo$cost, unname(apply(as.matrix(bo[, c("x1", "x2")]), 1L,
                                       cost)),
                 tolerance = 1e-14, label = nm)
  }
})

test_that("forward differences in C match the derivative, backward at the upper faces", {
  cost <- function(u) exp(u[1]) * (1 + 3 * u[2]^2)
  dcost <- function(u) c(exp(u[1]) * (1 + 3 * u[2]^2), exp(u[1]) * 6 * u[2])
  seen <- list()
  fn <- costbo:::new_unit_cost(function(u) {
    seen[[length(seen) + 1L]] <<- u
    cost(u)
  })
  U <- rbind(c(0.3, 0.6), c(0, 1), c(1, 0), c(0.5, 1 - 1e-7))
  r <- costbo:::call_c(costbo:::C_rcall_eval, fn, U, c(-5, 0), c(15, 15),
                       TRUE)
  expect_identical(r$value, apply(U, 1L, cost))
  G <- t(apply(U, 1L, dcost))
  # steps h = sqrt(eps) max(1, |x|) / 15 in u: error ~ h f'' + eps f / h,
  # about 1e-8 relative
  expect_equal(t(r$grad), G, tolerance = 1e-6)
  expect_false(isTRUE(all.equal(t(r$grad), G, tolerance = 1e-12)))
  pts <- do.call(rbind, seen)
  expect_true(all(pts >= 0 & pts <= 1))
  # 1 + d calls at every point; at u = 1 the step goes backwards
  expect_identical(nrow(pts), 4L * 3L)
  expect_lt(pts[6, 2], 1)
  expect_identical(pts[6, 1], 0)
})

test_that("a point asked again is answered from the cache, exactly", {
  calls <- 0L
  fn <- costbo:::new_unit_cost(function(u) {
    calls <<- calls + 1L
    structure(exp(u[1]) + u[2]^2, gradient = c(exp(u[1]), 2 * u[2]))
  })
  set.seed(2)
  P <- matrix(runif(200), 100)
  U <- P[c(1:100, 100:1, 1:100), ]
  direct <- t(apply(U, 1L, function(u) c(exp(u[1]) + u[2]^2, exp(u[1]), 2 * u[2])))
  # values only: the gradient attribute is kept, and answers a request for
  # a gradient later
  r <- costbo:::call_c(costbo:::C_rcall_eval, fn, U, c(0, 0), c(1, 1), FALSE)
  expect_identical(r$value, direct[, 1])
  # 300 requests of 100 points in 1024 slots: a few collisions call again
  expect_gte(calls, 100L)
  expect_lt(calls, 130L)
  calls <- 0L
  r <- costbo:::call_c(costbo:::C_rcall_eval, fn, U, c(0, 0), c(1, 1), TRUE)
  expect_lt(calls, 130L)
  expect_identical(r$value, direct[, 1])
  expect_identical(t(r$grad), unname(direct[, 2:3]))
  # without the attribute, a value is asked once
  calls <- 0L
  plain <- costbo:::new_unit_cost(function(u) {
    calls <<- calls + 1L
    exp(u[1]) + u[2]^2
  })
  r <- costbo:::call_c(costbo:::C_rcall_eval, plain, U[c(1, 1, 1), ],
                       c(0, 0), c(1, 1), FALSE)
  expect_identical(calls, 1L)
  expect_identical(r$value, rep(direct[1, 1], 3))
  # a bad gradient is ignored where none is asked, an error where one is
  bad <- costbo:::new_unit_cost(function(u) structure(1, gradient = NA))
  expect_identical(costbo:::call_c(costbo:::C_rcall_eval, bad, U[1:2, ],
                                   c(0, 0), c(1, 1), FALSE)$value, c(1, 1))
  expect_error(costbo:::call_c(costbo:::C_rcall_eval, bad, U[1:2, ],
                               c(0, 0), c(1, 1), TRUE),
               "gradient", class = "costbo_error_cost")
})

test_that("problem_cost_closure() is the user's function, called by C in the box's units", {
  seen <- NULL
  user <- function(x) {
    seen <<- x
    structure(1 + x[1]^2 + x[2], gradient = c(2 * x[1], 1))
  }
  prob <- bo_problem(function(x) sum(x), lower = c(-5, 0), upper = c(10, 2),
                     cost = user, budget = 1)
  cl <- costbo:::problem_cost_closure(prob)
  expect_s3_class(cl, "costbo_unit_cost")
  expect_identical(attr(cl, "costbo_units"), "x")
  r <- costbo:::call_c(costbo:::C_rcall_eval, cl, rbind(c(0.2, 0.5)),
                       c(-5, 0), c(15, 2), TRUE)
  x <- c(-5 + 0.2 * 15, 0 + 0.5 * 2)
  expect_identical(seen, x)
  expect_equal(r$value, 1 + x[1]^2 + x[2], tolerance = 1e-15)
  # d cost / d u = d cost / d x * (upper - lower)
  expect_equal(as.vector(r$grad), c(2 * x[1] * 15, 1 * 2), tolerance = 1e-15)
  # an error inside it names the point in the box's units
  prob2 <- bo_problem(function(x) sum(x), lower = c(-5, 0), upper = c(10, 2),
                      cost = function(x) stop("closed"), budget = 1)
  e <- expect_error(costbo:::call_c(costbo:::C_rcall_eval,
                                    costbo:::problem_cost_closure(prob2),
                                    rbind(c(0.2, 0.5)), c(-5, 0), c(15, 2),
                                    FALSE),
                    class = "costbo_error_cost")
  expect_match(conditionMessage(e), "^`cost` failed at the point \\(-2, 1\\): closed$")
  # a bad value too, without "of the unit cube" (bad away from the centre
  # of the box, where bo_problem() looks at it)
  prob3 <- bo_problem(function(x) sum(x), lower = c(-5, 0), upper = c(10, 2),
                      cost = function(x) if (x[1] < 0) -1 else 1,
                      budget = 1)
  e <- expect_error(costbo:::call_c(costbo:::C_rcall_eval,
                                    costbo:::problem_cost_closure(prob3),
                                    rbind(c(0.2, 0.5)), c(-5, 0), c(15, 2),
                                    FALSE),
                    class = "costbo_error_cost")
  expect_match(conditionMessage(e), "not -1 \\(at the point \\(-2, 1\\)\\)\\.$")
  # a primitive is wrapped (it cannot carry the marking attributes)
  pr <- costbo:::new_unit_cost(sum, units = "x")
  expect_identical(pr(c(1, 2)), 3)
  expect_s3_class(pr, "costbo_unit_cost")
  # costs the C core evaluates itself, and measured costs, have none
  expect_null(costbo:::problem_cost_closure(
    bo_problem(function(x) sum(x), 0, 1, cost = 2, budget = 1)))
  expect_null(costbo:::problem_cost_closure(
    bo_problem(function(x) sum(x), 0, 1, cost = cost_linear(0, 1),
               budget = 1)))
  expect_null(costbo:::problem_cost_closure(
    bo_problem(function(x) list(value = x, cost = 1), 0, 1, budget = 1)))
})

test_that("acq_evaluate() with a cost function of rows is cost_linear() evaluated in C", {
  set.seed(4)
  lower <- c(-5, 0)
  upper <- c(10, 15)
  X <- cbind(runif(12, -5, 10), runif(12, 0, 15))
  fit <- gp_fit(X, sin(X[, 1] / 3) + cos(X[, 2] / 4), lower = lower,
                upper = upper)
  rows <- function(x) {
    u <- sweep(sweep(x, 2L, lower), 2L, upper - lower, "/")
    structure(1 + 20 * rowMeans(u),
              gradient = matrix(20 / 2 / (upper - lower), nrow(x), 2,
                                byrow = TRUE))
  }
  pts <- rbind(c(0, 3), c(7.5, 12))
  for (type in c("ei_pu", "pbgi")) {
    lam <- if (type == "pbgi") 0.01
    a <- acq_evaluate(fit, pts, type, cost = rows, lambda = lam, grad = TRUE)
    b <- acq_evaluate(fit, pts, type, cost = cost_linear(lower, upper),
                      lambda = lam, grad = TRUE)
    expect_equal(a$value, b$value, tolerance = 1e-12)
    expect_equal(a$grad, b$grad, tolerance = 1e-9)
    # without the attribute: central differences
    plain <- function(x) as.vector(rows(x))
    p <- acq_evaluate(fit, pts, type, cost = plain, lambda = lam,
                      grad = TRUE)
    expect_equal(p$grad, b$grad, tolerance = 1e-6)
  }
  m <- acq_maximize(fit, "ei_pu", cost = rows)
  expect_equal(m$value, acq_evaluate(fit, m$x, "ei_pu", cost = rows),
               tolerance = 1e-12)
})
