# The optimization loop and the budget accounting.

#' Run a cost-aware Bayesian optimization
#'
#' Evaluates an initial design, then repeats: refit the models (warm-started
#' from the previous fit), ask the policy for the next point, evaluate it,
#' record it, until the budget is spent.
#'
#' @section Budget accounting:
#' The budget is for the optimization phase: by default the initial design's
#' costs are recorded but not charged (as in the papers' reference
#' implementations; `charge_initial = TRUE` charges them). With a known cost
#' the run stops when the next proposed point would not fit in the remaining
#' budget, so every evaluation is within budget. With a measured cost the
#' price is only known once paid: the evaluation that crosses the budget is
#' recorded, marked `within_budget = FALSE`, and ends the run (the reporting
#' rule of Astudillo et al. 2021).
#'
#' @section Models:
#' Before every proposal the objective's GP (and, for a measured cost, the
#' GP of the log cost) is refitted by [gp_fit()] to all successful
#' evaluations, warm-started from the previous fit. The problem says whether
#' its evaluations are deterministic (the default) or noisy (`noisy` in
#' [bo_problem()]; [test_problem()] and the other test problems declare
#' their own). A deterministic objective, and every measured cost, is
#' modelled with the noise variance held in \[1e-4, 1e-3\] of the variance
#' of the observations, as in the reference implementation of Astudillo et
#' al. (2021): the GP then (nearly) interpolates and cannot explain a lone
#' good observation as noise, which would flatten its posterior until every
#' expected improvement vanished. A noisy objective's noise is estimated,
#' and the incumbent of the expected-improvement family (EI and its
#' cost-aware variants, B-MS-EI's tree, the rollouts and PBGI's stopping
#' rule) is then the largest posterior mean at the evaluated points
#' (Picheny et al. 2013) instead of the largest noisy observation. `model`
#' overrides these defaults (see its description). The reported best value
#' and regret are the best observed values either way.
#'
#' @section Control sets:
#' For a problem with control sets ([bo_problem()] with `control_sets`) and
#' a policy for them ([policy_ucb_cvs()] and its relatives), the initial
#' design is made of full queries (recorded at the largest control-set cost),
#' and each step the policy chooses a control set and a control partial
#' query; the other inputs are drawn from their distributions, the objective
#' is evaluated at the realized full query and the step costs the set's
#' cost. The run stops when the chosen control set no longer fits in the
#' remaining budget (Tay et al. 2023, Alg. 1, step 7). The chosen set and the
#' realized random inputs are recorded with every evaluation.
#'
#' @section Information sources:
#' For a problem with several information sources ([bo_problem()] with
#' `sources`), every point of the initial design is evaluated at every
#' source (so `n_init` points give `n_init * sources` evaluations), and each
#' step the policy chooses a point and a source; the step costs that
#' source's cost, and the run stops when the chosen pair no longer fits in
#' the remaining budget. The source is recorded with every evaluation
#' (`source` in [as.data.frame()]); the best value, the regret and the
#' progress plot count evaluations of source 0 (the objective) only.
#'
#' @section Failures and interruptions:
#' An error, a missing or infinite value, or a non-positive measured cost
#' from the objective is recorded with its point and message. With
#' `on_error = "stop"` the run ends there and returns everything evaluated so
#' far; with `"skip"` it continues (a policy that proposes a failed point
#' again ends the run). A failed evaluation is charged its cost when the cost
#' is known. An interrupt (Ctrl-C), also during long C computations, or an
#' error inside the policy, ends the run cleanly with all evaluations kept.
#'
#' @section Reproducibility and checkpoints:
#' All randomness comes from R's generator: with `seed` (or after
#' [set.seed()]) two runs are identical. With `checkpoint = "file.rds"` the
#' run, including the generator's state, is saved after every evaluation;
#' [bo_resume()] continues it exactly as if it had never stopped.
#'
#' @param problem A [bo_problem()] (see also [test_problem()]).
#' @param policy A policy, e.g. [policy_ei_pu()] (see [bo_policy]).
#' @param n_init Size of the initial design: scrambled Sobol points (random
#'   candidates for a finite domain). Default `2 * (d + 1)`, or 0 with
#'   `initial`.
#' @param initial Optional data frame of points already evaluated (columns
#'   `x1`, ..., `xd`, `value`, and `cost` for a measured cost); they form
#'   (part of) the initial design.
#' @param seed Optional seed for [set.seed()].
#' @param max_evaluations Optional cap on the number of evaluations after the
#'   initial design.
#' @param charge_initial Charge the initial design's cost to the budget?
#' @param on_error `"stop"` or `"skip"`: what to do when the objective fails.
#' @param pandora_stop Also stop when the Pandora stopping rule fires (the
#'   incumbent, see the section on models, is at least the largest Gittins
#'   index; PBGI policies only), as in the cost-per-sample setting of Xie et
#'   al. (2024).
#' @param progress Show progress (default in interactive sessions).
#' @param checkpoint Optional file to save the run to after every evaluation.
#' @inheritParams bo_session
#' @return A `bo_run`: use [summary()], [as.data.frame()] and [plot()] on it.
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 6)
#' run <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
#' run
#' head(as.data.frame(run))
#' @export
bo_optimize <- function(problem, policy, n_init = NULL, initial = NULL,
                        seed = NULL, max_evaluations = NULL,
                        charge_initial = FALSE, on_error = c("stop", "skip"),
                        pandora_stop = FALSE, progress = interactive(),
                        checkpoint = NULL, model = list()) {
  call <- sys.call()
  check_problem_policy(problem, policy, call)
  n_init <- if (is.null(n_init)) {
    if (is.null(initial)) 2L * (problem$d + 1L) else 0L
  } else check_count(n_init)
  if (!is.null(seed)) seed <- check_count(seed)
  if (!is.null(max_evaluations)) {
    max_evaluations <- check_count(max_evaluations)
  }
  charge_initial <- check_flag(charge_initial)
  on_error <- check_choice(on_error, c("stop", "skip"))
  pandora_stop <- check_flag(pandora_stop)
  progress <- check_flag(progress)
  if (!is.null(checkpoint) && !(is.character(checkpoint) &&
                                length(checkpoint) == 1L && nzchar(checkpoint))) {
    stop_arg("checkpoint", "a file name", checkpoint)
  }
  if (!is.null(problem$candidates) &&
      n_init > nrow(problem$candidates)) {
    stop_arg("n_init", sprintf("at most the number of candidates (%d)",
                               nrow(problem$candidates)), n_init)
  }
  model <- check_model_args(model)
  if (!is.null(seed)) set.seed(seed)
  state <- new_state(problem, policy, charge_initial, model)
  if (!is.null(initial)) state <- state_initial(state, initial, call)
  ctl <- list(max_evaluations = max_evaluations, on_error = on_error,
              pandora_stop = pandora_stop, progress = progress,
              checkpoint = checkpoint)
  if (n_init + sum(state_ok(state)) < 2L && is.null(problem$prior)) {
    stop_arg("n_init", "such that the initial design has at least 2 points",
             n_init)
  }
  state$memory <- policy_init(policy, state)
  state$started <- Sys.time()
  state <- run_initial(state, n_init, ctl)
  run_loop(state, ctl)
}

#' Resume a run from its checkpoint
#'
#' Continues a run saved by [bo_optimize()] with `checkpoint = file`, from
#' where it stopped (for instance after a crash, an interrupt or a time
#' limit), exactly as if it had never stopped: the random-number generator's
#' state is restored from the file. It keeps checkpointing to the same file.
#'
#' @param checkpoint The checkpoint file.
#' @param problem Optionally the problem again, to re-attach an objective
#'   whose code refers to objects that are not saved with it (functions of
#'   the global environment, connections to instruments). It must have the
#'   same domain, cost type and budget as the saved one.
#' @param max_evaluations Optionally a new cap on the number of evaluations
#'   after the initial design.
#' @param progress Show progress?
#' @return A `bo_run`.
#' @family runs
#' @examples
#' f <- tempfile(fileext = ".rds")
#' prob <- test_problem("branin", budget = 6)
#' part <- bo_optimize(prob, policy_ei(), seed = 1, max_evaluations = 2,
#'                     checkpoint = f, progress = FALSE)
#' full <- bo_resume(f, max_evaluations = 6, progress = FALSE)
#' nrow(as.data.frame(full))
#' unlink(f)
#' @export
bo_resume <- function(checkpoint, problem = NULL, max_evaluations = NULL,
                      progress = interactive()) {
  if (!(is.character(checkpoint) && length(checkpoint) == 1L &&
        file.exists(checkpoint))) {
    stop_arg("checkpoint", "an existing checkpoint file", checkpoint)
  }
  saved <- readRDS(checkpoint)
  if (!(is.list(saved) && identical(saved$format, "costbo checkpoint"))) {
    stop_arg("checkpoint", "a file written by bo_optimize(checkpoint = )",
             checkpoint)
  }
  ctl <- saved$ctl
  if (!is.null(max_evaluations)) {
    ctl$max_evaluations <- check_count(max_evaluations)
  }
  ctl$progress <- check_flag(progress)
  ctl$checkpoint <- checkpoint
  state <- saved$state
  if (!is.null(problem)) {
    old <- state$problem
    same <- inherits(problem, "bo_problem") && problem$d == old$d &&
      isTRUE(all.equal(problem$lower, old$lower)) &&
      isTRUE(all.equal(problem$upper, old$upper)) &&
      identical(problem$cost_type, old$cost_type) &&
      isTRUE(all.equal(problem$budget, old$budget))
    if (!same) {
      stop_arg("problem", paste("a bo_problem with the saved problem's domain,",
                                "cost type and budget"), problem)
    }
    state$problem <- problem
  }
  assign(".Random.seed", saved$random_seed, envir = globalenv())
  state$stop_reason <- NULL
  run_loop(state, ctl)
}

# Evaluate the initial design.
run_initial <- function(state, n_init, ctl) {
  pr <- state$problem
  if (n_init == 0L) return(state)
  pts <- if (!is.null(pr$candidates)) {
    pr$candidates[sample.int(nrow(pr$candidates), n_init), , drop = FALSE]
  } else {
    sweep(sweep(sobol_points(n_init, pr$d), 2L, pr$upper - pr$lower, "*"),
          2L, pr$lower, "+")
  }
  # a multi-source problem evaluates every initial point at every source
  sources <- if (is_miso(pr)) seq_len(pr$n_sources) - 1L else NA_integer_
  tryCatch({
    for (i in seq_len(n_init)) for (s in sources) {
      ev <- if (is.na(s)) evaluate_objective(pr, pts[i, ]) else
        evaluate_objective(pr, pts[i, ], miso_cost(pr, pts[i, ], s),
                           source = s)
      state <- state_record(state, pts[i, ], ev$value, ev$cost, "initial",
                            status = ev$status, message = ev$message,
                            eval_time = ev$time,
                            source = s)
      save_checkpoint(state, ctl)
      if (ev$status != "ok" && ctl$on_error == "stop") {
        state$stop_reason <- sprintf("the objective failed at an initial point: %s",
                                     ev$message)
        return(state)
      }
    }
    state
  }, interrupt = function(e) {
    state$stop_reason <- "interrupted"
    state
  })
}

# Call the objective at x (at `source` for a multi-source problem) under
# tryCatch; returns list(value, cost, status, message, time).
evaluate_objective <- function(problem, x, cost = NULL, source = NULL) {
  t0 <- proc.time()[["elapsed"]]
  out <- tryCatch(if (is.null(source)) problem$objective(x) else
    problem$objective(x, source), error = function(e) e)
  time <- proc.time()[["elapsed"]] - t0
  known <- problem$cost_type != "measured"
  price <- function() if (is.null(cost)) problem$cost(x) else cost
  fail <- function(msg) {
    list(value = NA_real_, cost = if (known) price() else NA_real_,
         status = "error", message = msg, time = time)
  }
  if (inherits(out, "error")) return(fail(conditionMessage(out)))
  if (known) {
    if (!(is.numeric(out) && length(out) == 1L && is.finite(out))) {
      return(fail(sprintf("the objective returned %s, not a finite number",
                          describe_value(out))))
    }
    return(list(value = as.double(out), cost = price(), status = "ok",
                message = "", time = time))
  }
  v <- if (is.list(out)) out$value else if (is.numeric(out)) out["value"]
  cst <- if (is.list(out)) out$cost else if (is.numeric(out)) out["cost"]
  if (!(is.numeric(v) && length(v) == 1L && is.finite(v))) {
    return(fail("the objective did not return a finite `value` (with its `cost`)"))
  }
  if (!(is.numeric(cst) && length(cst) == 1L && is.finite(cst) && cst > 0)) {
    return(fail(sprintf("the objective returned the cost %s, not a positive number",
                        describe_value(unname(cst)))))
  }
  list(value = as.double(v), cost = as.double(cst), status = "ok",
       message = "", time = time)
}

save_checkpoint <- function(state, ctl) {
  if (is.null(ctl$checkpoint)) return(invisible())
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    stats::runif(1)
  }
  saved <- list(format = "costbo checkpoint", state = state, ctl = ctl,
                random_seed = get(".Random.seed", envir = globalenv()))
  tmp <- paste0(ctl$checkpoint, ".tmp")
  saveRDS(saved, tmp)
  file.rename(tmp, ctl$checkpoint)
  invisible()
}

# The main loop; returns a bo_run.
run_loop <- function(state, ctl) {
  if (!is.null(state$stop_reason)) return(finish_run(state, ctl))
  pr <- state$problem
  n_bo <- function() sum(state$phase == "bo")
  failed <- state$X[!state_ok(state), , drop = FALSE]
  result <- tryCatch({
    repeat {
      if (state$spent >= state$budget) {
        state$stop_reason <- "budget spent"
        break
      }
      if (!is.null(ctl$max_evaluations) && n_bo() >= ctl$max_evaluations) {
        state$stop_reason <- "maximum number of evaluations reached"
        break
      }
      p <- tryCatch(state_propose(state), error = function(e) e)
      if (inherits(p, "error")) {
        state$stop_reason <- paste("the policy failed:", conditionMessage(p))
        break
      }
      state <- p$state
      x <- p$x
      if (ctl$pandora_stop && isTRUE(p$info$stop_rule)) {
        state$stop_reason <- "Pandora stopping rule"
        break
      }
      if (is_miso(pr)) {
        state <- run_miso_step(state, p, ctl)
        if (!is.null(state$stop_reason)) break
        next
      }
      if (is_cvs(pr)) {
        state <- run_cvs_step(state, p, ctl)
        if (!is.null(state$stop_reason)) break
        next
      }
      if (pr$cost_type == "known" &&
          state$spent + pr$cost(x) > state$budget * (1 + 1e-12)) {
        state$stop_reason <- "budget spent: the next point would not fit"
        state$declined <- list(x = x, cost = pr$cost(x), info = p$info)
        break
      }
      if (nrow(failed) && any(rowSums(abs(sweep(failed, 2L, x)) <=
                                      1e-10 * (pr$upper - pr$lower)) == pr$d)) {
        state$stop_reason <- "the policy proposed a point that failed before"
        break
      }
      ev <- evaluate_objective(pr, x)
      state <- state_record(state, x, ev$value, ev$cost, "bo",
                            status = ev$status, message = ev$message,
                            fit_time = p$fit_time,
                            policy_time = p$policy_time, eval_time = ev$time,
                            info = p$info)
      state$memory <- p$memory
      state$iteration <- state$iteration + 1L
      save_checkpoint(state, ctl)
      if (ctl$progress) show_progress(state)
      if (ev$status != "ok") {
        failed <- rbind(failed, x)
        if (ctl$on_error == "stop") {
          state$stop_reason <- paste("the objective failed:", ev$message)
          break
        }
      }
    }
    state
  }, interrupt = function(e) {
    state$stop_reason <- "interrupted"
    state
  })
  finish_run(result, ctl)
}

# One step with control sets: stop when the chosen set does not fit, else
# draw the random inputs, evaluate the realized full query and record it.
run_cvs_step <- function(state, p, ctl) {
  pr <- state$problem
  i <- p$control_set
  cost <- pr$control_costs[i]
  if (state$spent + cost > state$budget * (1 + 1e-12)) {
    state$stop_reason <- "budget spent: the chosen control set would not fit"
    state$declined <- list(x = p$x, control_set = i, cost = cost,
                           info = p$info)
    return(state)
  }
  x <- cvs_realize(pr, p$x, i)
  record_step(state, x, evaluate_objective(pr, x, cost), p, ctl,
              control_set = i)
}

# Record a step's evaluation with the policy's timings and diagnostics,
# checkpoint, and stop on a failure when asked to.
record_step <- function(state, x, ev, p, ctl, control_set = NA_integer_,
                        source = NA_integer_) {
  state <- state_record(state, x, ev$value, ev$cost, "bo",
                        status = ev$status, message = ev$message,
                        fit_time = p$fit_time, policy_time = p$policy_time,
                        eval_time = ev$time, info = p$info,
                        control_set = control_set, source = source)
  state$memory <- p$memory
  state$iteration <- state$iteration + 1L
  save_checkpoint(state, ctl)
  if (ctl$progress) show_progress(state)
  if (ev$status != "ok" && ctl$on_error == "stop") {
    state$stop_reason <- paste("the objective failed:", ev$message)
  }
  state
}

# One step with information sources: stop when the chosen (point, source)
# does not fit, else evaluate the source there and record it.
run_miso_step <- function(state, p, ctl) {
  pr <- state$problem
  s <- as.integer(p$source)
  cost <- miso_cost(pr, p$x, s)
  if (state$spent + cost > state$budget * (1 + 1e-12)) {
    state$stop_reason <- "budget spent: the next point would not fit"
    state$declined <- list(x = p$x, source = s, cost = cost, info = p$info)
    return(state)
  }
  record_step(state, p$x, evaluate_objective(pr, p$x, cost, source = s), p,
              ctl, source = s)
}

# The simple regret of Tay et al. (2023) after each evaluation of the
# optimization phase: optimum minus the best expected noise-free objective of
# the chosen (control set, partial query) so far; NA without it.
cvs_simple_regret <- function(x) {
  pr <- x$problem
  n <- length(x$value)
  if (!is_cvs(pr) || is.null(pr$noise_free) || is.null(pr$optimum)) {
    return(rep(NA_real_, n))
  }
  e <- ifelse(x$phase == "bo", x$expected, -Inf)
  r <- pr$optimum - cummax(e)
  r[!is.finite(r)] <- NA_real_
  r
}

finish_run <- function(state, ctl) {
  if (ctl$progress) cat("\n", file = stderr())
  structure(state, class = "bo_run")
}

show_progress <- function(state) {
  cat(sprintf("\r[costbo] %d evaluations, spent %s of %s, best %s   ",
              length(state$value), format(state$spent, digits = 4),
              format(state$budget, digits = 4),
              format(state_best(state), digits = 6)), file = stderr())
}

#' @export
print.bo_run <- function(x, ...) {
  cat(sprintf("Bayesian optimization run: %s on \"%s\"\n", x$policy$label,
              x$problem$name))
  print_state_summary(x)
  cat(sprintf("  stopped: %s\n", x$stop_reason))
  invisible(x)
}

#' Summarize a run
#'
#' @param object A `bo_run`.
#' @param ... Unused.
#' @return An object of class `summary.bo_run`: a list with the best point,
#'   best value (of the objective, source 0, with information sources), simple regret (when the problem's optimum is known; with
#'   control sets, the simple regret of Tay et al. 2023 on the expected
#'   noise-free objective, when the problem records it), the
#'   spend, the numbers of evaluations (within budget, initial, failed) and
#'   the reason the run stopped.
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 4), policy_ei(),
#'                    seed = 2, progress = FALSE)
#' summary(run)
#' @export
summary.bo_run <- function(object, ...) {
  df <- as.data.frame(object)
  ok <- df$status == "ok"
  n_failed <- sum(!ok)
  if (is_miso(object$problem)) ok <- ok & df$source == 0L
  best_i <- if (any(ok)) which(ok)[which.max(df$value[ok])] else NA_integer_
  xn <- paste0("x", seq_len(object$problem$d))
  best_value <- if (is.na(best_i)) NA_real_ else df$value[best_i]
  regret <- if (is.null(object$problem$optimum)) NA_real_ else
    object$problem$optimum - best_value
  if (is_cvs(object$problem)) {
    # the regret of the chosen control sets and partial queries
    sr <- cvs_simple_regret(object)
    regret <- if (length(sr)) sr[length(sr)] else NA_real_
  }
  structure(list(
    problem = object$problem$name, policy = object$policy$label,
    best_x = if (is.na(best_i)) NULL else unlist(df[best_i, xn]),
    best_value = best_value,
    optimum = object$problem$optimum,
    regret = regret, cvs = is_cvs(object$problem),
    spent = object$spent, budget = object$budget,
    n = nrow(df), n_initial = sum(df$phase == "initial"),
    n_within_budget = sum(df$within_budget & df$phase == "bo"),
    n_failed = n_failed, stop_reason = object$stop_reason
  ), class = "summary.bo_run")
}

#' @export
print.summary.bo_run <- function(x, digits = max(3L, getOption("digits") - 3L),
                                 ...) {
  cat(sprintf("%s on \"%s\"\n", x$policy, x$problem))
  cat(sprintf("  best value:  %s\n", format(x$best_value, digits = digits)))
  if (!is.null(x$best_x)) {
    cat(sprintf("  best point:  (%s)\n",
                paste(format(x$best_x, digits = digits), collapse = ", ")))
  }
  if (!is.na(x$regret) && isTRUE(x$cvs)) {
    cat(sprintf("  regret:      %s (simple regret of the expected objective; optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  } else if (!is.na(x$regret)) {
    cat(sprintf("  regret:      %s (known optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  }
  cat(sprintf("  spent:       %s of budget %s\n",
              format(x$spent, digits = digits), format(x$budget, digits = digits)))
  cat(sprintf("  evaluations: %d (%d initial, %d within budget after them, %d failed)\n",
              x$n, x$n_initial, x$n_within_budget, x$n_failed))
  cat(sprintf("  stopped:     %s\n", x$stop_reason))
  invisible(x)
}

#' One row per evaluation of a run or session
#'
#' @param x A `bo_run` or `bo_session`.
#' @param row.names,optional Passed on to [as.data.frame()].
#' @param ... Unused.
#' @return A data frame with columns `x1`, ..., `xd`, `value`, `cost`,
#'   `cumulative_cost` (charged costs only), `within_budget`, `phase`
#'   (`"initial"` or `"bo"`), `status` (`"ok"` or `"error"`), `message`,
#'   `fit_time`, `policy_time`, `eval_time` (seconds), then the policy's
#'   diagnostics (e.g. `acquisition`, `lambda`). With control sets, after
#'   `eval_time`: `control_set` (the index of the chosen set, `NA` for the
#'   initial design), `random_x1`, ..., `random_xd` (the realized random
#'   inputs, `NA` where controlled), and when the problem records its
#'   noise-free objective `expected_value` (of the chosen set and partial
#'   query) and `simple_regret`. With information sources, after
#'   `eval_time`: `source` (0 for the objective).
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 3), policy_ei_pu(),
#'                    seed = 3, progress = FALSE)
#' as.data.frame(run)
#' @export
as.data.frame.bo_run <- function(x, row.names = NULL, optional = FALSE,
                                 ...) {
  n <- length(x$value)
  X <- x$X
  colnames(X) <- paste0("x", seq_len(x$problem$d))
  cum <- cumsum(ifelse(x$charged, x$cost, 0))
  df <- data.frame(X, value = x$value, cost = x$cost, cumulative_cost = cum,
                   within_budget = cum <= x$budget * (1 + 1e-12),
                   phase = x$phase, status = x$status, message = x$message,
                   fit_time = x$fit_time, policy_time = x$policy_time,
                   eval_time = x$eval_time, stringsAsFactors = FALSE)
  if (is_miso(x$problem)) df$source <- x$source
  if (is_cvs(x$problem)) {
    df$control_set <- x$control_set
    R <- x$random
    colnames(R) <- paste0("random_x", seq_len(x$problem$d))
    df <- cbind(df, as.data.frame(R))
    if (!is.null(x$problem$noise_free)) {
      df$expected_value <- x$expected
      df$simple_regret <- cvs_simple_regret(x)
    }
  }
  keys <- unique(unlist(lapply(x$info, names)))
  for (k in keys) {
    df[[k]] <- vapply(x$info, function(i) {
      v <- i[[k]]
      if (is.null(v) || length(v) != 1L) NA_real_ else as.double(v)
    }, numeric(1))
  }
  if (!is.null(row.names)) row.names(df) <- row.names
  if (n == 0L) df <- df[0, , drop = FALSE]
  df
}

#' @rdname as.data.frame.bo_run
#' @export
as.data.frame.bo_session <- as.data.frame.bo_run
