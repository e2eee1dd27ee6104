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

fuzz_run <- function(seed = 16L, funs = NULL) {
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
        res <- fuzz_call(f, bad)
        out <- fuzz_classify(res, argnames, callnames)
        msg <- if (inherits(res, "error")) {
          paste(conditionMessage(res), collapse = "\n")
        } else ""
        rows[[length(rows) + 1L]] <- data.frame(
          fun = fn, arg = as.character(a), value = vn, outcome = out,
          names_arg = grepl(paste0("`", if (is.numeric(a)) "..." else a),
                            msg, fixed = TRUE),
          class = if (inherits(res, "error")) class(res)[1L] else "",
          message = substr(msg, 1L, 200L), stringsAsFactors = FALSE)
      }
    }
  }
  do.call(rbind, rows)
}
