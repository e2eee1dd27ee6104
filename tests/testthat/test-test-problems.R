# The papers' test problems: optima, cost families, defaults and arguments.

# The value of a problem's objective at x, whether or not it reports a cost.
tp_value <- function(p, x) {
  v <- p$objective(x)
  if (is.list(v)) v$value else v
}

# Every problem with a closed-form optimum, at its default dimension.
tp_fixed <- function() {
  nm <- setdiff(test_problems()$name, "gp_sample")
  stats::setNames(lapply(nm, test_problem), nm)
}

test_that("test_problems() lists every problem with its defaults", {
  tab <- test_problems()
  expect_s3_class(tab, "data.frame")
  expect_named(tab, c("name", "d", "d_allowed", "domain", "cost_family",
                      "known_cost", "budget", "optimum", "paper"))
  expect_setequal(tab$name, c(
    "dropwave", "alpine1", "ackley", "shekel5", "levy", "rosenbrock",
    "gp_sample", "lee2021", "branin", "six_hump_camel", "goldstein_price",
    "bohachevsky", "griewank", "hartmann3", "hartmann6"))
  row <- function(nm) tab[tab$name == nm, ]
  # paper 000: budgets 40, 60, 80, 60, measured cosine costs
  for (nm in c("dropwave", "alpine1", "shekel5", "ackley")) {
    expect_identical(row(nm)$cost_family, "cosine")
    expect_false(row(nm)$known_cost)
  }
  expect_equal(sapply(c("dropwave", "alpine1", "shekel5", "ackley"),
                      function(nm) row(nm)$budget),
               c(dropwave = 40, alpine1 = 60, shekel5 = 80, ackley = 60))
  expect_equal(row("ackley")$d, 3)
  # paper 002: known linear cost, budget 25 d
  for (nm in c("levy", "rosenbrock", "gp_sample")) {
    expect_identical(row(nm)$cost_family, "linear")
    expect_true(row(nm)$known_cost)
    expect_equal(row(nm)$budget, 25 * row(nm)$d)
  }
  expect_true(is.na(row("gp_sample")$optimum))
  # paper 001: its own cost and budget 150
  expect_identical(row("lee2021")$cost_family, "radial")
  expect_equal(row("lee2021")$budget, 150)
  # paper 004: uniform cost, 10 d evaluations
  for (nm in c("branin", "six_hump_camel", "goldstein_price", "bohachevsky",
               "griewank")) {
    expect_identical(row(nm)$cost_family, "uniform")
    expect_equal(row(nm)$budget, 10 * row(nm)$d)
  }
  expect_equal(row("griewank")$d, 3)
  expect_identical(row("branin")$domain, "[-5, 10] x [0, 15]")
  expect_identical(row("griewank")$domain, "[-600, 600]^d")
})

test_that("the problems have the documented domains and dimensions", {
  dom <- list(
    dropwave = c(-5.12, 5.12, 2), alpine1 = c(-10, 10, 3),
    ackley = c(-1, 1, 3), shekel5 = c(0, 10, 4), levy = c(-10, 10, 8),
    rosenbrock = c(-5, 10, 8), gp_sample = c(0, 1, 8), lee2021 = c(-1, 1, 2),
    goldstein_price = c(-2, 2, 2), bohachevsky = c(-100, 100, 2),
    griewank = c(-600, 600, 3), hartmann3 = c(0, 1, 3),
    hartmann6 = c(0, 1, 6))
  tab <- test_problems()
  for (nm in names(dom)) {
    expect_equal(tab$d[tab$name == nm], dom[[nm]][3], label = nm)
  }
  probs <- tp_fixed()
  for (nm in setdiff(names(dom), "gp_sample")) {
    p <- probs[[nm]]
    expect_s3_class(p, "bo_problem")
    expect_identical(p$name, nm)
    expect_equal(p$d, dom[[nm]][3], label = nm)
    expect_equal(p$lower, rep(dom[[nm]][1], p$d), label = nm)
    expect_equal(p$upper, rep(dom[[nm]][2], p$d), label = nm)
  }
  expect_equal(probs$branin$lower, c(-5, 0))
  expect_equal(probs$branin$upper, c(10, 15))
  expect_equal(probs$six_hump_camel$lower, c(-3, -2))
  expect_equal(probs$six_hump_camel$upper, c(3, 2))
  expect_equal(test_problem("levy", d = 3)$d, 3L)
  expect_equal(test_problem("ackley", d = 5, cost_family = "linear")$budget, 125)
  expect_equal(test_problem("rosenbrock", d = 2)$budget, 50)
  expect_equal(test_problem("griewank", d = 5)$budget, 50)
  expect_equal(test_problem("branin", budget = 7)$budget, 7)
  expect_equal(test_problem("ackley", d = 2)$budget, 40)
})

test_that("every problem attains its optimum at its listed maximizers", {
  probs <- tp_fixed()
  for (nm in names(probs)) {
    p <- probs[[nm]]
    X <- p$maximizer
    expect_true(is.matrix(X) && ncol(X) == p$d, label = nm)
    expect_true(all(t(X) >= p$lower & t(X) <= p$upper), label = nm)
    v <- apply(X, 1L, function(x) tp_value(p, x))
    expect_equal(v, rep(p$optimum, nrow(X)), tolerance = 1e-12, label = nm)
  }
  expect_identical(nrow(probs$alpine1$maximizer), 512L)
  expect_identical(nrow(probs$branin$maximizer), 3L)
  expect_identical(nrow(probs$six_hump_camel$maximizer), 2L)
})

test_that("the optima agree with the literature", {
  v <- function(nm, x, ...) tp_value(test_problem(nm, ...), x)
  opt <- function(nm) test_problem(nm)$optimum
  # exact maximizers
  expect_equal(v("dropwave", c(0, 0)), 1)
  expect_equal(v("alpine1", c(0, 0, 0)), 0)
  expect_equal(v("ackley", rep(0, 3)), 0, tolerance = 1e-14)
  expect_equal(v("ackley", rep(0, 7), d = 7), 0, tolerance = 1e-14)
  expect_equal(v("levy", rep(1, 8)), 0, tolerance = 1e-14)
  expect_equal(v("rosenbrock", rep(1, 8)), 0)
  expect_equal(v("bohachevsky", c(0, 0)), 0, tolerance = 1e-14)
  expect_equal(v("griewank", rep(0, 3)), 0)
  expect_equal(v("goldstein_price", c(0, -1)), -3)
  for (nm in c("dropwave", "alpine1", "ackley", "levy", "rosenbrock",
               "bohachevsky", "griewank")) {
    expect_equal(opt(nm), 0 + (nm == "dropwave"), label = nm)
  }
  expect_equal(opt("goldstein_price"), -3)
  # maximizers known to a few digits: values to a matching tolerance
  expect_equal(opt("branin"), -0.397887, tolerance = 1e-6)
  for (x in list(c(-pi, 12.275), c(pi, 2.275), c(9.42478, 2.475))) {
    expect_equal(v("branin", x), -0.397887, tolerance = 1e-6)
  }
  expect_equal(opt("six_hump_camel"), 1.0316, tolerance = 1e-4)
  expect_equal(v("six_hump_camel", c(0.0898, -0.7126)), 1.0316,
               tolerance = 1e-4)
  expect_equal(v("six_hump_camel", c(-0.0898, 0.7126)), 1.0316,
               tolerance = 1e-4)
  expect_equal(opt("shekel5"), 10.1532, tolerance = 1e-5)
  expect_equal(v("shekel5", c(4.00004, 4.00013, 4.00004, 4.00013)),
               10.1532, tolerance = 1e-5)
  expect_equal(opt("hartmann3"), 3.86278, tolerance = 1e-5)
  expect_equal(v("hartmann3", c(0.114614, 0.555649, 0.852547)), 3.86278,
               tolerance = 1e-5)
  expect_equal(opt("hartmann6"), 3.32237, tolerance = 1e-5)
  expect_equal(v("hartmann6", c(0.20169, 0.150011, 0.476874, 0.275332,
                                0.311652, 0.6573)), 3.32237,
               tolerance = 1e-5)
  # paper 001: the maximum of -10 r sin(2 pi r) over r in [0, sqrt(2)]
  r <- stats::optimize(function(r) -10 * r * sin(2 * pi * r), c(0, sqrt(2)),
                       maximum = TRUE, tol = 1e-12)
  expect_equal(opt("lee2021"), r$objective, tolerance = 1e-10)
  th <- c(0.3, 2, 4.4)
  expect_equal(sapply(th, function(t) v("lee2021", r$maximum *
                                           c(cos(t), sin(t)))),
               rep(r$objective, 3), tolerance = 1e-9)
})

test_that("a local search from the maximizers finds nothing better", {
  probs <- tp_fixed()
  for (nm in names(probs)) {
    p <- probs[[nm]]
    x0 <- p$maximizer[1L, ]
    o <- stats::optim(x0, function(x) tp_value(p, x), method = "L-BFGS-B",
                      lower = p$lower, upper = p$upper,
                      control = list(fnscale = -1, factr = 1, pgtol = 0))
    expect_lte(o$value, p$optimum + 1e-8, label = nm)
  }
})

test_that("no point of a dense random sample beats the stated optimum", {
  set.seed(11)
  probs <- tp_fixed()
  for (nm in names(probs)) {
    p <- probs[[nm]]
    U <- matrix(stats::runif(2000 * p$d), ncol = p$d)
    X <- sweep(sweep(U, 2L, p$upper - p$lower, "*"), 2L, p$lower, "+")
    v <- apply(X, 1L, function(x) tp_value(p, x))
    expect_true(all(is.finite(v)), label = nm)
    expect_lte(max(v), p$optimum, label = nm)
  }
})

test_that("the objectives follow the standard definitions at spot points", {
  x <- c(1.3, -0.4)
  expect_equal(tp_value(test_problem("goldstein_price"), x),
               -((1 + (x[1] + x[2] + 1)^2 * (19 - 14 * x[1] + 3 * x[1]^2 -
                   14 * x[2] + 6 * x[1] * x[2] + 3 * x[2]^2)) *
                   (30 + (2 * x[1] - 3 * x[2])^2 * (18 - 32 * x[1] +
                     12 * x[1]^2 + 48 * x[2] - 36 * x[1] * x[2] +
                     27 * x[2]^2))))
  r <- sqrt(sum(x^2))
  expect_equal(tp_value(test_problem("dropwave"), x),
               (1 + cos(12 * r)) / (0.5 * r^2 + 2))
  expect_equal(tp_value(test_problem("lee2021"), x),
               -10 * r * sin(2 * pi * r))
  y <- c(2.5, -7.1, 3.3)
  expect_equal(tp_value(test_problem("alpine1"), y),
               -sum(abs(y * sin(y) + 0.1 * y)))
  expect_equal(tp_value(test_problem("griewank"), 100 * y),
               -(sum((100 * y)^2) / 4000 -
                   cos(250) * cos(-710 / sqrt(2)) * cos(330 / sqrt(3)) + 1))
  z <- c(0.3, -0.8, 0.1)
  expect_equal(tp_value(test_problem("ackley"), z),
               -(-20 * exp(-0.2 * sqrt(sum(z^2) / 3)) -
                   exp(sum(cos(2 * pi * z)) / 3) + 20 + exp(1)))
  w <- c(-3, 2, 7, 0.5)
  ww <- 1 + (w - 1) / 4
  levy <- sin(pi * ww[1])^2 +
    sum((ww[1:3] - 1)^2 * (1 + 10 * sin(pi * ww[1:3] + 1)^2)) +
    (ww[4] - 1)^2 * (1 + sin(2 * pi * ww[4])^2)
  expect_equal(tp_value(test_problem("levy", d = 4), w), -levy / 100)
  rosen <- sum(100 * (w[2:4] - w[1:3]^2)^2 + (w[1:3] - 1)^2)
  expect_equal(tp_value(test_problem("rosenbrock", d = 4), w), -rosen / 1e5)
})

test_that("the cost families follow the papers' formulas", {
  coef000 <- function(seed) {
    set.seed(seed %% 20)
    u <- stats::runif(3)
    c(a = 0.75 + 0.75 * u[1], b = 1 + 2 * u[2], c = 2 * pi * u[3])
  }
  ln_cos <- function(x, k, P, shift = 0) {
    k[["a"]] * mean(cos(2 * pi * k[["b"]] * (x - shift + k[["c"]]) / P))
  }
  x <- c(1.7, -3.2)
  p <- test_problem("dropwave", seed = 7)
  expect_equal(p$objective(x)$cost, exp(ln_cos(x, coef000(7), 5.12)))
  x3 <- c(-4.2, 0.3, 8.8)
  p <- test_problem("alpine1", seed = 25)
  expect_equal(p$objective(x3)$cost, exp(ln_cos(x3, coef000(5), 10)))
  p <- test_problem("ackley", seed = 2)
  expect_equal(p$objective(c(0.2, -0.5, 0.9))$cost,
               exp(ln_cos(c(0.2, -0.5, 0.9), coef000(2), 1)))
  x4 <- c(1, 4, 6.5, 9)
  p <- test_problem("shekel5", seed = 3)
  expect_equal(p$objective(x4)$cost, exp(ln_cos(x4, coef000(3), 4, 4)))
  # other problems: period half the mean side of the box
  p <- test_problem("branin", cost_family = "cosine", seed = 4)
  expect_equal(p$objective(x)$cost, exp(ln_cos(x, coef000(4), 7.5)))
  # paper 002: 20 (0.05 + mean(u)) on the unit-cube image
  lin <- function(x, lo, up) 20 * (0.05 + mean((x - lo) / (up - lo)))
  p <- test_problem("levy", d = 3)
  expect_equal(p$cost(c(-10, 0, 4)), lin(c(-10, 0, 4), -10, 10))
  expect_equal(p$cost(rep(-10, 3)), 1)
  expect_equal(p$cost(rep(10, 3)), 21)
  p <- test_problem("ackley", d = 2, cost_family = "linear")
  expect_equal(p$cost(c(0.5, -0.2)), lin(c(0.5, -0.2), -1, 1))
  p <- test_problem("branin", cost_family = "linear")
  expect_equal(p$cost(c(0, 3)), lin(c(0, 3), c(-5, 0), c(10, 15)))
  # paper 001: c(x) = 10 - 5 ||x||
  p <- test_problem("lee2021")
  expect_equal(p$cost(c(0.6, -0.8)), 5)
  expect_equal(p$cost(c(0, 0)), 10)
  # uniform cost
  expect_equal(test_problem("hartmann6")$cost(rep(0.5, 6)), 1)
  expect_equal(test_problem("dropwave", cost_family = "uniform")$cost(c(1, 1)), 1)
})

test_that("measured costs come with the value, known costs go to the policy", {
  p <- test_problem("dropwave")
  expect_identical(p$cost_type, "measured")
  expect_null(p$cost)
  out <- p$objective(c(0.1, 0.2))
  expect_type(out, "list")
  expect_named(out, c("value", "cost"))
  expect_true(out$cost > 0)
  k <- test_problem("dropwave", known_cost = TRUE, seed = 9)
  expect_identical(k$cost_type, "known")
  expect_type(k$objective(c(0.1, 0.2)), "double")
  expect_equal(k$cost(c(0.1, 0.2)),
               test_problem("dropwave", seed = 9)$objective(c(0.1, 0.2))$cost)
  b <- test_problem("branin")
  expect_identical(b$cost_type, "known")
  expect_length(b$objective(c(1, 2)), 1L)
  m <- test_problem("branin", known_cost = FALSE)
  expect_identical(m$cost_type, "measured")
  expect_equal(m$objective(c(1, 2)), list(value = b$objective(c(1, 2)),
                                          cost = 1))
  l <- test_problem("levy", d = 2, known_cost = FALSE)
  expect_equal(l$objective(c(0, 0))$cost, 20 * (0.05 + 0.5))
})

test_that("gp_sample's optimum bounds a fresh random sample", {
  for (d in c(2L, 8L)) {
    p <- test_problem("gp_sample", d = d, seed = 4)
    expect_equal(tp_value(p, p$maximizer[1, ]), p$optimum)
    expect_true(all(p$maximizer >= 0 & p$maximizer <= 1))
    set.seed(100 + d)
    X <- matrix(stats::runif(1e4 * d), ncol = d)
    expect_gte(p$optimum, max(p$objective(X)))
  }
  expect_identical(p$d, 8L)
  expect_equal(p$lower, rep(0, 8))
  expect_identical(p$cost_type, "known")
})

test_that("seeds reproduce problems and leave the caller's stream alone", {
  set.seed(42)
  before <- .Random.seed
  g1 <- test_problem("gp_sample", d = 1, seed = 3)
  expect_identical(.Random.seed, before)
  g2 <- test_problem("gp_sample", d = 1, seed = 3)
  g3 <- test_problem("gp_sample", d = 1, seed = 4)
  X <- matrix(seq(0.05, 0.95, length.out = 10), ncol = 1)
  expect_identical(g1$objective(X), g2$objective(X))
  expect_identical(g1$optimum, g2$optimum)
  expect_false(isTRUE(all.equal(g1$objective(X), g3$objective(X))))
  c1 <- test_problem("shekel5", seed = 6)$objective(c(1, 2, 3, 4))$cost
  c2 <- test_problem("shekel5", seed = 6)$objective(c(1, 2, 3, 4))$cost
  c3 <- test_problem("shekel5", seed = 26)$objective(c(1, 2, 3, 4))$cost
  c4 <- test_problem("shekel5", seed = 7)$objective(c(1, 2, 3, 4))$cost
  expect_identical(c1, c2)
  expect_identical(c1, c3)
  expect_false(c1 == c4)
})

test_that("noise is Gaussian with the given sd, from R's generator", {
  p <- test_problem("hartmann3", noise_sd = 0.5)
  x <- c(0.2, 0.4, 0.6)
  n <- 2000
  set.seed(3)
  v <- replicate(n, p$objective(x))
  expect_lt(abs(mean(v) - tp_value(test_problem("hartmann3"), x)),
            4 * 0.5 / sqrt(n))
  expect_equal(stats::sd(v), 0.5, tolerance = 0.1)
  set.seed(3)
  expect_identical(replicate(n, p$objective(x)), v)
  m <- test_problem("alpine1", noise_sd = 0.1)$objective(c(1, 1, 1))
  expect_false(m$value == tp_value(test_problem("alpine1"), c(1, 1, 1)))
})

test_that("the test problems declare whether they are noisy", {
  for (nm in test_problems()$name) {
    p <- test_problem(nm)
    expect_false(p$noisy, label = nm)
    # deterministic: the same value at the same point
    x <- (p$lower + p$upper) / 2 + 0.1 * (p$upper - p$lower)
    expect_identical(tp_value(p, x), tp_value(p, x), label = nm)
    expect_true(test_problem(nm, noise_sd = 0.1)$noisy, label = nm)
  }
  # the control-set problems carry the paper's noise (sd 0.01) by default
  expect_true(test_problem_cvs("hartmann3")$noisy)
  expect_false(test_problem_cvs("gp_sample", noise_sd = 0)$noisy)
  # source 2 of the three-source problems is noisy (variance 0.5)
  expect_false(test_problem_miso("rosenbrock")$noisy)
  expect_true(test_problem_miso("rosenbrock", noise_sd = 0.1)$noisy)
  expect_true(test_problem_miso("goldstein_price")$noisy)
  expect_true(test_problem_miso("bohachevsky")$noisy)
  p <- test_problem_miso("bohachevsky")
  set.seed(2)
  v <- replicate(200, p$objective(c(0.5, 0.5), 2L))
  expect_equal(stats::var(v), 0.5, tolerance = 0.3)
  expect_identical(p$objective(c(0.5, 0.5), 0L), p$objective(c(0.5, 0.5), 0L))
})

test_that("test_problem() rejects bad arguments, naming them", {
  bad <- function(expr) expect_error(expr, class = "costbo_error_arg")
  expect_error(test_problem("dropwav"), "`name`.*dropwave.*hartmann6",
               class = "costbo_error_arg")
  bad(test_problem(3))
  bad(test_problem(c("branin", "levy")))
  expect_error(test_problem("dropwave", d = 3), "`d`",
               class = "costbo_error_arg")
  bad(test_problem("hartmann6", d = 3))
  bad(test_problem("rosenbrock", d = 1))
  bad(test_problem("levy", d = 0))
  bad(test_problem("levy", d = 2.5))
  expect_error(test_problem("branin", cost_family = "free"), "`cost_family`",
               class = "costbo_error_arg")
  bad(test_problem("branin", cost_family = "radial"))
  bad(test_problem("branin", cost_family = "ring"))
  bad(test_problem("branin", known_cost = NA))
  bad(test_problem("branin", known_cost = "yes"))
  expect_error(test_problem("branin", seed = -1), "`seed`",
               class = "costbo_error_arg")
  bad(test_problem("branin", seed = 1.5))
  expect_error(test_problem("branin", budget = 0), "`budget`",
               class = "costbo_error_arg")
  bad(test_problem("branin", budget = NA))
  expect_error(test_problem("branin", noise_sd = -1), "`noise_sd`",
               class = "costbo_error_arg")
})

test_that("lee2021's ring cost is largest on its circle of minimizers, as paper 001's text says", {
  p <- test_problem("lee2021", cost_family = "ring")
  q <- test_problem("lee2021")
  expect_identical(p$cost_type, "known")
  expect_equal(p$budget, 150)
  expect_identical(p$optimum, q$optimum)
  expect_identical(p$maximizer, q$maximizer)
  x <- c(0.3, -0.7)
  expect_identical(p$objective(x), q$objective(x))
  # the radius of the objective's minimum, by optimize() on 10 r sin(2 pi r)
  rs <- stats::optimize(function(r) 10 * r * sin(2 * pi * r), c(0.5, 1),
                        tol = 1e-12)$minimum
  ring <- function(x) 10 - 5 * abs(sqrt(sum(x^2)) - rs)
  set.seed(4)
  X <- matrix(stats::runif(40, -1, 1), ncol = 2)
  expect_equal(apply(X, 1, p$cost), apply(X, 1, ring), tolerance = 1e-9)
  # 10 on the circle, 10 - 5 r* at the origin, 10 - 5 (sqrt 2 - r*) at
  # the corners
  expect_equal(apply(p$maximizer, 1, p$cost), rep(10, 4L), tolerance = 1e-12)
  expect_equal(p$cost(c(0, 0)), 10 - 5 * rs, tolerance = 1e-9)
  expect_equal(p$cost(c(-1, 1)), 10 - 5 * (sqrt(2) - rs), tolerance = 1e-9)
  # the most expensive radius of a fine grid is the cheapest objective's
  r <- seq(0, sqrt(2), length.out = 20001)
  at <- function(r) cbind(r / sqrt(2), r / sqrt(2))
  cost_r <- apply(at(r), 1, p$cost)
  f_r <- apply(at(r), 1, function(x) -p$objective(x))
  expect_equal(r[which.max(cost_r)], r[which.min(f_r)], tolerance = 1e-4)
  # paper 001's own cost is largest at the origin, where f is 0
  expect_identical(r[which.max(apply(at(r), 1, q$cost))], 0)
  # measured, as the paper's log-warped GP learns it
  m <- test_problem("lee2021", cost_family = "ring", known_cost = FALSE)
  expect_identical(m$cost_type, "measured")
  expect_equal(m$objective(x)$cost, ring(x), tolerance = 1e-9)
})

test_that("test_problem_scale() is the optimum minus the objective's median over the box", {
  # medians on a midpoint grid, with the functions written here
  grid_median <- function(f, lower, upper, m) {
    axes <- lapply(seq_along(lower), function(k) {
      lower[k] + (seq_len(m) - 0.5) / m * (upper[k] - lower[k])
    })
    stats::median(f(as.matrix(expand.grid(axes))))
  }
  branin <- function(X) {
    (X[, 2] - 5.1 / (4 * pi^2) * X[, 1]^2 + 5 / pi * X[, 1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(X[, 1]) + 10
  }
  gold <- function(X) {
    a <- X[, 1]
    b <- X[, 2]
    (1 + (a + b + 1)^2 * (19 - 14 * a + 3 * a^2 - 14 * b + 6 * a * b +
                            3 * b^2)) *
      (30 + (2 * a - 3 * b)^2 * (18 - 32 * a + 12 * a^2 + 48 * b - 36 * a * b +
                                   27 * b^2))
  }
  griewank <- function(X) {
    rowSums(X^2) / 4000 - cos(X[, 1]) * cos(X[, 2] / sqrt(2)) *
      cos(X[, 3] / sqrt(3)) + 1
  }
  lee <- function(X) {
    r <- sqrt(rowSums(X^2))
    10 * r * sin(2 * pi * r)
  }
  # minimization forms: optimum (of the maximized form) = -min, scale =
  # median - min
  cases <- list(
    branin = list(f = branin, lo = c(-5, 0), up = c(10, 15), m = 400,
                  min = 5 / (4 * pi)),
    goldstein_price = list(f = gold, lo = c(-2, -2), up = c(2, 2), m = 400,
                           min = 3),
    griewank = list(f = griewank, lo = rep(-600, 3), up = rep(600, 3),
                    m = 60, min = 0),
    lee2021 = list(f = lee, lo = c(-1, -1), up = c(1, 1), m = 400,
                   min = -7.6624668131479972))
  set.seed(7)
  before <- .Random.seed
  for (nm in names(cases)) {
    k <- cases[[nm]]
    ref <- grid_median(k$f, k$lo, k$up, k$m) - k$min
    s <- test_problem_scale(nm)
    expect_equal(s, ref, tolerance = 0.01, label = nm)
    expect_gt(s, 0)
  }
  # a fixed number, and the caller's random stream untouched
  expect_identical(test_problem_scale("branin"), test_problem_scale("branin"))
  expect_identical(.Random.seed, before)
  # d for the problems of any dimension
  expect_false(test_problem_scale("griewank", d = 2) ==
                 test_problem_scale("griewank"))
  expect_error(test_problem_scale("branin", d = 3), "`d`",
               class = "costbo_error_arg")
  expect_error(test_problem_scale("nope"), "`name`",
               class = "costbo_error_arg")
})

test_that("control-set problems refuse input variances their truncated normal cannot reach", {
  for (v in c(5e-324, 1e-300, 1e-8)) {
    e <- expect_error(test_problem_cvs("hartmann3", variance = v),
                      class = "costbo_error_arg")
    expect_identical(e$arg, "variance")
    expect_match(conditionMessage(e), "in (1e-8, 1/12)", fixed = TRUE)
  }
  # just above the floor: a truncated normal of scale about 1e-4
  p <- test_problem_cvs("hartmann3", variance = 1.0001e-8)
  q <- p$quantiles[[1L]](c(0.025, 0.975))
  expect_equal(diff(q), 2 * qnorm(0.975) * sqrt(1.0001e-8), tolerance = 1e-6)
})
