# Seeded fuzzing of the exported functions (issue 16): every argument of
# every exported function (and of the S3 methods users call) is replaced, one
# at a time, by malformed values, in an otherwise valid and cheap call. Each
# call must either return, or signal a costbo_error whose message names an
# argument of the function in backticks; R-internal errors are failures.
# Used by test-fuzz.R (assertions) and bench/fuzz-report.R (counts).

# Valid, cheap baselines: the function and a list of arguments.
fuzz_baselines <- function() {
  set.seed(20160)
  X <- matrix(runif(12), ncol = 2)
  y <- sin(4 * X[, 1]) + X[, 2]
  fit <- gp_fit(X, y, lower = c(0, 0), upper = c(1, 1), n_starts = 1)
  Xm <- matrix(runif(16), ncol = 2)
  sm <- rep(0:1, 4)
  ym <- sin(4 * Xm[, 1]) + Xm[, 2] + 0.2 * sm
  mfit <- gp_fit_miso(Xm, sm, ym, lower = c(0, 0), upper = c(1, 1))
  cfit <- gp_fit(matrix(runif(30), ncol = 3), runif(10), lower = 0,
                 upper = 1, n_starts = 1)
  Z <- matrix(runif(30), ncol = 3)
  prob <- bo_problem(function(x) sum(x^2), lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) 1, budget = 3)
  sess <- bo_session(prob, policy_ei(), initial = data.frame(
    x1 = X[1:4, 1], x2 = X[1:4, 2], value = y[1:4]))
  run <- bo_optimize(prob, policy_random(), seed = 1, progress = FALSE)
  bm <- bo_benchmark(list(p = prob), list(r = policy_random()), reps = 2,
                     max_evaluations = 1, progress = FALSE)
  d <- data.frame(problem = rep(c("p1", "p2"), each = 8),
                  policy = rep(rep(c("a", "b"), each = 4), 2),
                  rep = rep(1:4, 4), score = runif(16))
  ckpt <- tempfile(fileext = ".rds")
  bo_optimize(prob, policy_random(), seed = 2, checkpoint = ckpt,
              max_evaluations = 1, progress = FALSE)
  S <- diag(3) + 0.5
  fin <- gp_finite(c(0, 0.2, 0), S, x = 1, y = 0.1)
  runs <- c(run, run)
  cmp <- bo_compare(d, "a", "b", measure = "score", higher_is_better = TRUE)
  claim <- bo_claim(d, "a beats b", "a", "b", measure = "score",
                    higher_is_better = TRUE)
  list(
    acq_closed_form = list("acq_closed_form", list(
      type = "ei", mean = c(0, 1), sd = c(1, 2), best = 0.5)),
    acq_evaluate = list("acq_evaluate", list(
      model = fit, x = c(0.2, 0.3), type = "ei", best = 1)),
    acq_expected_ucb = list("acq_expected_ucb", list(
      model = cfit, x = c(0.2, 0.7), controlled = c(3, 1), samples = Z,
      beta = 1.5)),
    acq_maximize = list("acq_maximize", list(
      model = fit, type = "ucb", beta = 2, lower = c(0, 0), upper = c(1, 1),
      n_raw = 16, n_starts = 1)),
    acq_pandora_stop = list("acq_pandora_stop", list(best = 1, g = c(0.5, 2))),
    bo_acquisition = list("bo_acquisition", list(session = sess, X = X[1:2, ])),
    budget_left = list("budget_left", list(x = sess)),
    is_finished = list("is_finished", list(x = run)),
    bo_policy_guide = list("bo_policy_guide", list(setting = "known cost")),
    bo_ask = list("bo_ask", list(session = sess, n = 2)),
    bo_benchmark = list("bo_benchmark", list(
      problems = list(p = prob), policies = list(r = policy_random()),
      reps = 1, max_evaluations = 1, progress = FALSE)),
    bo_claim = list("bo_claim", list(
      x = d, claim = "a beats b", policy = "a", baseline = "b",
      measure = "score", higher_is_better = TRUE)),
    bo_compare = list("bo_compare", list(
      x = d, policy = "a", baseline = "b", measure = "score",
      higher_is_better = TRUE)),
    bo_optimize = list("bo_optimize", list(
      problem = prob, policy = policy_random(), seed = 1,
      max_evaluations = 1, progress = FALSE)),
    bo_problem = list("bo_problem", list(
      objective = function(x) sum(x), lower = c(0, 0), upper = c(1, 1),
      budget = 3)),
    bo_resume = list("bo_resume", list(
      checkpoint = ckpt, max_evaluations = 1, progress = FALSE)),
    bo_session = list("bo_session", list(problem = prob, policy = policy_ei())),
    bo_tell = list("bo_tell", list(
      session = sess, x = c(0.5, 0.5), value = 0.3, cost = 1)),
    cost_cosine = list("cost_cosine", list(lower = c(0, 0), upper = c(1, 1),
                                         seed = 1)),
    cost_linear = list("cost_linear", list(lower = c(0, 0), upper = c(1, 1))),
    gauss_hermite = list("gauss_hermite", list(n = 5)),
    gp_condition = list("gp_condition", list(object = fit, x = c(0.5, 0.5),
                                           y = 0.1)),
    gp_finite = list("gp_finite", list(mean = c(0, 0.2, 0), cov = S, x = 1,
                                     y = 0.1)),
    gp_fit = list("gp_fit", list(X = X, y = y, lower = c(0, 0),
                               upper = c(1, 1), n_starts = 1)),
    gp_fit_miso = list("gp_fit_miso", list(X = Xm, source = sm, y = ym,
                                         lower = c(0, 0), upper = c(1, 1))),
    gp_prior_sample = list("gp_prior_sample", list(d = 2, n_features = 16)),
    policy_bmsei = list("policy_bmsei", list(steps = 2, fantasies = 2)),
    policy_etc = list("policy_etc", list()),
    policy_kg = list("policy_kg", list()),
    policy_pbgi = list("policy_pbgi", list(lambda = 0.01)),
    policy_pbgi_d = list("policy_pbgi_d", list()),
    policy_rollout = list("policy_rollout", list()),
    policy_cmdp_rollout = list("policy_cmdp_rollout", list()),
    policy_kg_rollout = list("policy_kg_rollout", list()),
    policy_ts_psq = list("policy_ts_psq", list()),
    policy_ucb = list("policy_ucb", list()),
    policy_ucb_cvs = list("policy_ucb_cvs", list()),
    policy_ucb_psq = list("policy_ucb_psq", list()),
    as_bo_space = list("as_bo_space", list(
      x = bo_space(a = param_int(1, 3)))),
    bo_space = list("bo_space", list(a = param_int(1, 3),
                                     b = param_num(0, 1))),
    param_num = list("param_num", list(lower = 0.1, upper = 1, log = TRUE)),
    param_int = list("param_int", list(lower = 1, upper = 5, log = FALSE)),
    param_cat = list("param_cat", list(levels = c("a", "b"))),
    space_encode = list("space_encode", list(
      space = bo_space(a = param_int(1, 3), b = param_cat(c("x", "y"))),
      x = data.frame(a = 2, b = "y"))),
    space_decode = list("space_decode", list(
      space = bo_space(a = param_int(1, 3), b = param_cat(c("x", "y"))),
      U = c(0.5, 0.2, 0.7))),
    minimax_points = list("minimax_points", list(n = 3, d = 2, n_ref = 64,
                                                 restarts = 1)),
    sobol_normal = list("sobol_normal", list(n = 4, d = 2)),
    sobol_points = list("sobol_points", list(n = 4, d = 2)),
    test_problem = list("test_problem", list(name = "branin")),
    test_problem_cvs = list("test_problem_cvs", list(name = "hartmann3")),
    test_problem_scale = list("test_problem_scale", list(name = "branin")),
    test_problem_miso = list("test_problem_miso", list(
      name = "goldstein_price")),
    # S3 methods, called through their generics
    predict = list("predict", list(object = fit, newdata = c(0.5, 0.5))),
    predict_finite = list("predict", list(object = fin, newdata = 2)),
    predict_miso = list("predict", list(object = mfit,
                                      newdata = c(0.5, 0.5, 0))),
    simulate = list("simulate", list(object = fit, nsim = 2, seed = 1,
                                   newdata = c(0.5, 0.5))),
    as.data.frame_run = list("as.data.frame", list(x = run)),
    as.data.frame_benchmark = list("as.data.frame", list(x = bm)),
    summary_run = list("summary", list(object = run)),
    summary_benchmark = list("summary", list(object = bm)),
    c_benchmark = list("c", list(bm, bm)),
    c_run = list("c", list(run, run)),
    as.data.frame_runs = list("as.data.frame", list(x = runs)),
    as.data.frame_session = list("as.data.frame", list(x = sess)),
    plot_run = list("plot", list(x = run, type = "progress", n_grid = 20)),
    plot_benchmark = list("plot", list(x = bm, level = 0.9, legend = TRUE)),
    format_compare = list("format", list(x = cmp, digits = 2)),
    print_compare = list("print", list(x = cmp, digits = 3)),
    format_claim = list("format", list(x = claim, digits = 2)),
    print_claim = list("print", list(x = claim, digits = 3)),
    print_gp = list("print", list(x = fit, digits = 3)),
    print_summary_run = list("print", list(x = summary(run), digits = 3)),
    print_summary_benchmark = list("print", list(x = summary(bm),
                                                 digits = 3))
  )
}

# Malformed values, each with a label. Wrong-length vectors are drawn with
# the seed set by fuzz_run().
fuzz_values <- function() {
  list(
    "NULL" = NULL, "NA" = NA, "NA_real_" = NA_real_, "NaN" = NaN,
    "Inf" = Inf, "-Inf" = -Inf, "-1" = -1, "0" = 0, "0.5" = 0.5,
    "huge" = 1e300, "-huge" = -1e300, "1e10" = 1e10,
    # the extremes of the double range: near the largest double, the
    # smallest subnormal and a tiny normal number
    "1.797e308" = 1.797e308, "-1.797e308" = -1.797e308, "5e-324" = 5e-324,
    "1e-300" = 1e-300,
    "TRUE" = TRUE, "string" = "foo", "empty string" = "",
    "strings" = c("a", "b"), "complex" = 1i,
    "numeric(0)" = numeric(0), "character(0)" = character(0),
    "long vector" = runif(7), "negative vector" = -runif(3),
    "matrix" = matrix(runif(4), 2), "list" = list(1, "a"),
    "empty list" = list(), "function" = function(x) x,
    "data frame" = data.frame(a = 1:2, b = c("x", "y")),
    "factor" = factor("a"),
    # objects of the package changed after they were made
    "changed param" = structure(list(type = "num", lower = 1, upper = 0,
                                     log = FALSE), class = "costbo_param"),
    "changed space" = local({
      sp <- bo_space(a = param_int(1, 3))
      sp$params$a$upper <- 0
      sp
    })
  )
}

# Outcome of one call: "returned", "costbo_named" (a costbo_error naming an
# argument of the function), "costbo_unnamed" (a costbo_error naming none),
# "wrong_call" (a costbo_error naming an argument but reporting another
# call than the user's), "internal" (any other error: R-internal, or raised
# in C and not re-signalled), "hang" (over the time limit).
fuzz_classify <- function(res, argnames, callnames) {
  if (!inherits(res, "error")) return("returned")
  msg <- paste(conditionMessage(res), collapse = "\n")
  if (grepl("elapsed time limit", msg, fixed = TRUE)) return("hang")
  if (inherits(res, "costbo_error")) {
    named <- regmatches(msg, gregexpr("`[^`]+`", msg))[[1L]]
    named <- gsub("`", "", named)
    named <- sub("\\$.*|\\[.*", "", named)
    if (!any(named %in% argnames)) return("costbo_unnamed")
    cl <- conditionCall(res)
    if (!(is.call(cl) && is.symbol(cl[[1L]]) &&
          as.character(cl[[1L]]) %in% callnames)) return("wrong_call")
    return("costbo_named")
  }
  "internal"
}

# The mechanical checks of a returned result, for the calls whose result
# can be checked cheaply: "" when it passes, else what is wrong (the call
# is then "silently wrong"). `fn` names the baseline, `args` the call's
# arguments (the malformed one included).
#   numbers      every number returned is finite (acq_closed_form(),
#                acq_evaluate(), acq_expected_ucb(), acq_maximize(),
#                gauss_hermite(), sobol_*(), minimax_points(), predict(),
#                simulate()), EI >= 0, sd >= 0
#   shape        one value per point (acq_closed_form(): the recycled
#                length; predict(): as many sds as means), n x d points
#                (sobol_*(), minimax_points()), n nodes and weights
#                (gauss_hermite()), nsim samples (simulate())
#   range        points in the unit cube (sobol_points(), minimax_points()),
#                acq_maximize()'s x inside [lower, upper], Gauss-Hermite
#                weights >= 0 summing to 1 (sqrt(pi) for the physicists')
#   models       a fitted GP (gp_fit(), gp_fit_miso(), gp_condition(),
#                gp_finite()) predicts a finite mean and sd >= 0 at a point
#                of its domain, and its log-likelihood is finite
#   functions    a cost function (cost_linear(), cost_cosine()) is one
#                positive finite number at both corners and the centre of
#                its box; a prior sample (gp_prior_sample()) one finite
#                number at the centre of the unit cube
#   problems     a known cost of a problem (bo_problem(), test_problem*())
#                is one positive finite number at the centre of its box
fuzz_result_check <- function(fn, res, args) {
  finite <- function(v) all(is.finite(unlist(v)))
  one_pos <- function(v) is.numeric(v) && length(v) == 1L &&
    is.finite(v) && v > 0
  at <- function(f, x) tryCatch(suppressWarnings(f(x)),
                                error = function(e) NA_real_)
  centre <- function(o) (o$lower + o$upper) / 2
  fit_ok <- function(obj, x) {
    p <- tryCatch(predict(obj, x), error = function(e) NULL)
    if (is.null(p)) return("predict() fails on the fitted model")
    if (!finite(p) || any(p$sd < 0)) {
      return("the fitted model predicts a non-finite mean or sd")
    }
    ll <- tryCatch(as.numeric(logLik(obj)), error = function(e) NA_real_)
    if (!inherits(obj, "costbo_gp_finite") && !is.finite(ll)) {
      return("the fitted model's log-likelihood is not finite")
    }
    ""
  }
  switch(
    fn,
    acq_closed_form = {
      nums <- args[vapply(args, is.numeric, NA)]
      n <- max(lengths(nums))
      v <- if (is.data.frame(res)) res$value else res
      if (!finite(res)) "a non-finite value" else
        if (length(v) != n) "not one value per point" else
          if (any(v < 0)) "a negative EI" else ""
    },
    acq_evaluate = , acq_expected_ucb = {
      if (!is.numeric(unlist(res)) || !finite(res)) "a non-finite value" else ""
    },
    acq_maximize = {
      lo <- if (is.null(args$lower)) args$model$lower else args$lower
      up <- if (is.null(args$upper)) args$model$upper else args$upper
      if (!finite(res[c("x", "value")])) "a non-finite point or value" else
        if (any(res$x < lo | res$x > up)) "a point outside [lower, upper]" else
          ""
    },
    acq_pandora_stop = if (!(isTRUE(res) || isFALSE(res))) "not TRUE or FALSE"
    else "",
    gauss_hermite = {
      total <- if (identical(args$convention, "physicists")) sqrt(pi) else 1
      if (!finite(res)) "a non-finite node or weight" else
        if (length(res$nodes) != args$n || length(res$weights) != args$n)
          "not n nodes and weights" else
            if (any(res$weights < 0) ||
                abs(sum(res$weights) - total) > 1e-12)
              "weights not >= 0 with the right sum" else ""
    },
    sobol_points = , sobol_normal = , minimax_points = {
      if (!identical(dim(res), as.integer(c(args$n, args$d))))
        "not an n x d matrix" else if (!finite(res)) "a non-finite value" else
          if (fn != "sobol_normal" && any(res < 0 | res > 1))
            "points outside the unit cube" else ""
    },
    predict = , predict_finite = , predict_miso = {
      if (!finite(res)) "a non-finite mean or sd" else
        if (length(res$sd) != length(res$mean) || any(res$sd < 0))
          "sds not one >= 0 per mean" else ""
    },
    simulate = {
      if (!finite(res)) "a non-finite sample" else
        if (ncol(res) != args$nsim) "not nsim samples" else ""
    },
    gp_fit = fit_ok(res, centre(res)),
    gp_condition = fit_ok(res, centre(res)),
    gp_fit_miso = fit_ok(res, c(centre(res), 0)),
    gp_finite = fit_ok(res, 1),
    cost_linear = , cost_cosine = {
      d <- length(args$lower)
      lo <- rep_len(args$lower, d)
      up <- rep_len(args$upper, d)
      v <- list(at(res, lo), at(res, up), at(res, (lo + up) / 2))
      if (!all(vapply(v, one_pos, NA))) {
        "not one positive finite cost at the corners and centre of the box"
      } else ""
    },
    gp_prior_sample = {
      v <- at(res, rep(0.5, args$d))
      if (!(is.numeric(v) && length(v) == 1L && is.finite(v))) {
        "not one finite value at the centre of the cube"
      } else ""
    },
    bo_problem = , test_problem = , test_problem_cvs = ,
    test_problem_miso = {
      if (identical(res$cost_type, "known") && is.function(res$cost) &&
          is.null(res$space) &&
          !one_pos(at(res$cost, centre(res)))) {
        "a known cost that is not one positive finite number at the centre"
      } else ""
    },
    ""
  )
}

# Arguments that accept a non-finite value (NA, NaN, Inf, -Inf) on
# purpose: `fun` (a regular expression of the baselines' names) and `arg`,
# with the reason; any other accepted non-finite value is "silently wrong".
fuzz_nonfinite_ok <- data.frame(
  fun = c("^as.data.frame_", "^bo_tell$", "^acq_pandora_stop$",
          "^acq_(evaluate|maximize)$", "^acq_(evaluate|maximize)$",
          "^acq_(evaluate|maximize)$", "^acq_(evaluate|maximize)$",
          "^bo_(compare|claim)$"),
  arg = c("optional", "value", "g", "beta", "lambda", "nu", "remaining",
          "cost"),
  reason = c(
    "the generic's argument, unused (as in base R's as.data.frame() methods)",
    "a non-finite value records a failed experiment, as documented",
    "indices are only compared with the best value: +-Inf are ordered, as documented",
    rep(paste("a setting the type (\"ei\" here) does not use is ignored,",
              "as documented"), 4L),
    "read only for a benchmark, ignored for a data frame, as documented"),
  stringsAsFactors = FALSE)

# The reason `arg` of baseline `fn` takes a non-finite value ("" if none).
fuzz_nonfinite_reason <- function(fn, arg) {
  i <- which(vapply(fuzz_nonfinite_ok$fun, grepl, NA, x = fn) &
               fuzz_nonfinite_ok$arg == arg)
  if (length(i)) fuzz_nonfinite_ok$reason[i[1L]] else ""
}
fuzz_nonfinite_allowed <- function(fn, arg) {
  nzchar(fuzz_nonfinite_reason(fn, arg))
}

# The category of one fuzzed call (a row of fuzz_run()), as
# bench/fuzz-report.R counts them:
#   hang            over the time limit
#   internal        an R-internal error, or an error of C not re-signalled
#   unnamed         a costbo_error naming no argument of the function
#   wrong call      a costbo_error reporting another call than the user's
#   wrong argument  a costbo_error naming arguments, not the malformed one
#                   (naming both members of a pair counts as right)
#   clean           a costbo_error naming the malformed argument
#   silently wrong  returned a result that fails fuzz_result_check(), or
#                   accepted a non-finite value not in fuzz_nonfinite_ok
#   fine            returned, and passes the checks
#   crash           the process died (bench/fuzz-report.R runs the calls in
#                   a child process and skips such a call on the rerun)
fuzz_category <- function(outcome, names_arg, check, fn, arg, value) {
  nonfinite <- value %in% c("NA", "NA_real_", "NaN", "Inf", "-Inf")
  allowed <- mapply(fuzz_nonfinite_allowed, fn, arg)
  ifelse(outcome == "crash", "crash",
  ifelse(outcome == "hang", "hang",
  ifelse(outcome == "internal", "internal",
  ifelse(outcome == "costbo_unnamed", "unnamed",
  ifelse(outcome == "wrong_call", "wrong call",
  ifelse(outcome == "costbo_named" & !names_arg, "wrong argument",
  ifelse(outcome == "costbo_named", "clean",
  ifelse(nzchar(check) | (nonfinite & !allowed), "silently wrong",
         "fine"))))))))
}

# One call, its printed output discarded, with a time limit: a call that
# runs longer than `limit` seconds counts as a hang.
fuzz_call <- function(f, args, limit = 20) {
  setTimeLimit(elapsed = limit, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf))
  res <- NULL
  # progress lines go to stderr, printed results to stdout: drop both
  utils::capture.output(invisible(utils::capture.output(res <- tryCatch(
    suppressWarnings(suppressMessages(do.call(f, args, quote = TRUE))),
    error = function(e) e))), type = "message")
  res
}

# The S3 methods fuzzed through their generics: the method whose formals
# are fuzzed; the argument the generic dispatches on is not fuzzed (R, not
# costbo, answers a call on an object of another class).
fuzz_methods <- c(
  predict = "predict.costbo_gp", predict_finite = "predict.costbo_gp",
  predict_miso = "predict.costbo_gp", simulate = "simulate.costbo_gp",
  as.data.frame_run = "as.data.frame.bo_run",
  as.data.frame_benchmark = "as.data.frame.bo_benchmark",
  summary_run = "summary.bo_run", summary_benchmark = "summary.bo_benchmark",
  c_benchmark = "c.bo_benchmark", c_run = "c.bo_run",
  as.data.frame_runs = "as.data.frame.bo_runs",
  as.data.frame_session = "as.data.frame.bo_session",
  plot_run = "plot.bo_run", plot_benchmark = "plot.bo_benchmark",
  format_compare = "format.bo_compare", print_compare = "print.bo_compare",
  format_claim = "format.bo_claim", print_claim = "print.bo_claim",
  print_gp = "print.costbo_gp", print_summary_run = "print.summary.bo_run",
  print_summary_benchmark = "print.summary.bo_benchmark")

# `skip`: outcomes ("crash" or "hang") named by the keys ("fun|arg|value")
# of calls not made (bench/fuzz-report.R: they killed the process or
# outlived its time limit); `trace`: a file
# that holds the key of the call under way (for that report to find the
# call that killed it).
fuzz_run <- function(seed = 16L, funs = NULL, skip = character(),
                     trace = NULL) {
  base <- fuzz_baselines()
  if (!is.null(funs)) base <- base[funs]
  # files the calls write (a checkpoint named "foo") go to a directory of
  # their own
  dir <- tempfile("fuzz")
  dir.create(dir)
  old <- setwd(dir)
  # plots go to a null device
  grDevices::pdf(NULL)
  dev <- grDevices::dev.cur()
  on.exit({
    grDevices::dev.off(dev)
    setwd(old)
    unlink(dir, recursive = TRUE)
  })
  set.seed(seed)
  vals <- fuzz_values()
  rows <- list()
  for (fn in names(base)) {
    f <- base[[fn]][[1L]]
    args <- base[[fn]][[2L]]
    meth <- fuzz_methods[fn]
    if (is.na(meth)) {
      fm <- setdiff(names(formals(get(f, asNamespace("costbo")))), "...")
      # a function of `...` alone (bo_space()): the named arguments given
      if (!length(fm)) fm <- names(args)
      callnames <- f
    } else {
      fm <- names(formals(utils::getFromNamespace(meth, "costbo")))
      callnames <- c(f, meth)
      fm <- setdiff(fm, c(fm[1L], "..."))
    }
    # c(bm, bad): the second of the generic's `...`
    if (identical(f, "c")) fm <- 2L
    argnames <- if (identical(f, "c")) "..." else
      c(fm, names(args), if (!is.na(meth)) names(formals(f)))
    for (a in fm) {
      for (vn in names(vals)) {
        bad <- args
        if (is.null(vals[[vn]])) bad[a] <- list(NULL) else bad[[a]] <- vals[[vn]]
        key <- paste(fn, a, vn, sep = "|")
        if (key %in% names(skip)) {
          res <- NULL
          out <- skip[[key]]
        } else {
          if (!is.null(trace)) writeLines(key, trace)
          res <- fuzz_call(f, bad)
          out <- fuzz_classify(res, argnames, callnames)
        }
        msg <- if (inherits(res, "error")) {
          paste(conditionMessage(res), collapse = "\n")
        } else ""
        check <- if (identical(out, "returned")) {
          tryCatch(fuzz_result_check(fn, res, bad),
                   error = function(e) paste("the check failed:",
                                             conditionMessage(e)))
        } else ""
        rows[[length(rows) + 1L]] <- data.frame(
          fun = fn, arg = as.character(a), value = vn, outcome = out,
          names_arg = fuzz_names(msg, if (is.numeric(a)) "..." else a),
          check = check,
          class = if (inherits(res, "error")) class(res)[1L] else "",
          message = substr(msg, 1L, 200L), stringsAsFactors = FALSE)
      }
    }
  }
  out <- do.call(rbind, rows)
  out$category <- fuzz_category(out$outcome, out$names_arg, out$check,
                                out$fun, out$arg, out$value)
  out
}

# Does the message `msg` name the argument `a` in backticks (`a`, or an
# element such as `a$b` or `a[1]`)?
fuzz_names <- function(msg, a) {
  named <- regmatches(msg, gregexpr("`[^`]+`", msg))[[1L]]
  named <- sub("\\$.*|\\[.*", "", gsub("`", "", named))
  a %in% named
}

# Cases of the unclear and silently-wrong categories that are right, each
# with its reason: fun, arg, values (a regular expression of the labels
# of fuzz_values()), category, reason.
fuzz_right <- data.frame(
  fun = character(), arg = character(), values = character(),
  category = character(), reason = character(), stringsAsFactors = FALSE)

fuzz_right_reason <- function(fn, arg, value, category) {
  i <- which(fuzz_right$fun == fn & fuzz_right$arg == arg &
               fuzz_right$category == category &
               vapply(fuzz_right$values, grepl, NA, x = value))
  if (length(i)) fuzz_right$reason[i[1L]] else ""
}
