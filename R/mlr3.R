# The bridge to mlr3tuning: as_bo_space() for paradox search spaces, and the
# tuner "costbo" (class TunerBatchCostbo), registered in
# mlr3tuning::mlr_tuners when mlr3tuning is loaded (zzz.R). mlr3tuning,
# paradox, bbotk, data.table and R6 are suggested packages only: nothing
# here is built when the package is built; the R6 class is made by
# costbo_tuner_class() the first time the tuner is registered.

#' Convert a search space to a bo_space
#'
#' Turns a search space into a [bo_space()]: a `bo_space` is returned as it
#' is; a paradox `ParamSet` (a search space of mlr3tuning) converts
#' parameter by parameter: `p_dbl()` to [param_num()], `p_int()` to
#' [param_int()], `p_fct()` to [param_cat()] and `p_lgl()` to
#' `param_cat(c("TRUE", "FALSE"))`. A parameter on a log scale
#' (`p_dbl(lower, upper, logscale = TRUE)` or `p_int(..., logscale =
#' TRUE)`) becomes `param_num(lower, upper, log = TRUE)` (or `param_int()`)
#' on its original scale. Other transformations are not undone: the
#' parameter is searched on its untransformed range.
#'
#' Bounds must be finite. Untyped parameters (`p_uty()`), factors of one
#' level and dependencies between parameters are not supported: they are
#' errors (class `costbo_error_arg`) naming the parameter.
#'
#' @param x A `bo_space` or a paradox `ParamSet`.
#' @return A `bo_space`.
#' @family spaces
#' @seealso [mlr_tuners_costbo], the tuner that uses it.
#' @examples
#' if (requireNamespace("paradox", quietly = TRUE)) {
#'   ps <- paradox::ps(cp = paradox::p_dbl(1e-4, 0.1, logscale = TRUE),
#'                     minsplit = paradox::p_int(2, 64),
#'                     split = paradox::p_fct(c("gini", "information")))
#'   as_bo_space(ps)
#' }
#' @export
as_bo_space <- function(x) {
  if (inherits(x, "bo_space")) return(check_space(x, "x"))
  if (inherits(x, "ParamSet")) return(paradox_spec(x, sys.call())$space)
  stop_arg("x", "a bo_space or a paradox ParamSet", x)
}

# The bo_space of the paradox ParamSet `ps` and, for each parameter, the map
# from its typed value (on the original scale) to the value of the search
# space's untransformed representation (what bbotk's eval_batch() takes).
paradox_spec <- function(ps, call) {
  ids <- ps$ids()
  if (isTRUE(ps$has_deps)) {
    dep <- unique(ps$deps$id)
    stop_arg(sprintf("x$%s", dep[1L]), paste(
      "a parameter without dependencies (as_bo_space() does not support",
      "dependent parameters)"), show = FALSE, call = call)
  }
  cls <- ps$class
  lower <- ps$lower
  upper <- ps$upper
  levels <- ps$levels
  logscale <- ps$is_logscale
  trafos <- ps$params$.trafo
  names(trafos) <- ps$params$id
  params <- vector("list", length(ids))
  to_x <- vector("list", length(ids))
  names(params) <- names(to_x) <- ids
  for (id in ids) {
    arg <- sprintf("x$%s", id)
    kind <- cls[[id]]
    if (kind %in% c("ParamDbl", "ParamInt") &&
        !(is.finite(lower[[id]]) && is.finite(upper[[id]]))) {
      stop_arg(arg, "a parameter with finite bounds",
               c(lower[[id]], upper[[id]]), call = call)
    }
    if (kind == "ParamDbl" && isTRUE(logscale[[id]])) {
      # paradox searches log(x) and maps it back by its trafo: exp() for a
      # number, as.integer(exp()) on [log(lower), log(upper + 1)] for an
      # integer; the trafo at the bounds gives the original bounds
      tr <- trafos[[id]]
      lo <- tr(lower[[id]])
      up <- tr(upper[[id]])
      a <- lower[[id]]
      b <- upper[[id]]
      if (is.integer(lo)) {
        params[[id]] <- param_int(lo, up, log = TRUE)
        to_x[[id]] <- function(v) min(max(log(v + 0.5), a), b)
      } else {
        params[[id]] <- param_num(lo, up, log = TRUE)
        to_x[[id]] <- function(v) min(max(log(v), a), b)
      }
      environment(to_x[[id]]) <- list2env(list(a = a, b = b),
                                          parent = baseenv())
    } else if (kind == "ParamDbl") {
      params[[id]] <- param_num(lower[[id]], upper[[id]])
      to_x[[id]] <- as.double
    } else if (kind == "ParamInt") {
      params[[id]] <- param_int(lower[[id]], upper[[id]])
      to_x[[id]] <- as.integer
    } else if (kind == "ParamFct") {
      if (length(levels[[id]]) < 2L) {
        stop_arg(arg, "a factor of at least two levels", levels[[id]],
                 call = call)
      }
      params[[id]] <- param_cat(levels[[id]])
      to_x[[id]] <- as.character
    } else if (kind == "ParamLgl") {
      params[[id]] <- param_cat(c("TRUE", "FALSE"))
      to_x[[id]] <- as.logical
    } else {
      stop_arg(arg, paste("a numeric, integer, factor or logical parameter",
                          "(as_bo_space() does not support", kind,
                          "parameters)"), show = FALSE, call = call)
    }
  }
  if (any(make.names(ids) != ids)) {
    bad <- ids[make.names(ids) != ids][1L]
    stop_arg(sprintf("x$%s", bad), "a parameter with a syntactic name", bad,
             call = call)
  }
  list(space = new_space(params), to_x = to_x)
}

# The one-row data.table of the typed point `p` in the search space's
# untransformed representation.
paradox_xdt <- function(spec, p) {
  row <- lapply(names(spec$to_x), function(id) spec$to_x[[id]](p[[id]]))
  names(row) <- names(spec$to_x)
  data.table::as.data.table(row)
}

#' Cost-aware Bayesian optimization as an mlr3 tuner
#'
#' @name mlr_tuners_costbo
#' @description
#' The tuner `"costbo"` (class `TunerBatchCostbo`, a
#' `mlr3tuning::TunerBatch`) tunes any mlr3 learner over its search space
#' with a costbo policy, under a budget of cost: by default the learners'
#' training time (the archive's column `runtime_learners`, in seconds).
#' After `library(costbo)` (or whenever costbo's namespace is loaded, before
#' or after mlr3tuning's), `mlr3tuning::tnr("costbo", policy =
#' policy_ei_pu_cc(), budget = 60)` creates it. mlr3tuning, paradox, bbotk,
#' data.table and R6 must be installed; costbo itself does not import them.
#'
#' @section Parameters:
#' \describe{
#' \item{`policy`}{A costbo policy, e.g. [policy_ei_pu_cc()] (the default),
#'   [policy_ei_pu()], [policy_ei()] or [policy_bmsei()].}
#' \item{`budget`}{The total budget, in the units of the cost (required).}
#' \item{`cost`}{How a configuration's cost is known: the name of a numeric
#'   column of the archive holding its measured cost, by default
#'   `"runtime_learners"` (training and prediction time of the resampling,
#'   in seconds; a time of 0, below the resolution of R's clock, is charged
#'   as 0.001), or a function of one configuration (a named list of typed
#'   values, as [bo_problem()]`(space = )` gives it) returning its known cost
#'   before it is evaluated; the archive then gets a column `cost`.}
#' \item{`n_init`}{The size of costbo's initial design (scrambled Sobol
#'   points of the space, distinct typed points); default `2 (k + 1)` for
#'   `k` parameters of the space, ending early once a model can be fitted
#'   rather than spend more than a quarter of the budget, as in
#'   [bo_optimize()].}
#' \item{`charge_initial`}{Do the initial design's costs count against the
#'   budget? Default `TRUE`, as everywhere in costbo, so that the budget
#'   bounds the whole tuning.}
#' \item{`budget_prob`}{The probability with which a measured cost must be
#'   predicted to fit in the remaining budget for an evaluation to start
#'   (default 0.9; see [bo_optimize()]).}
#' \item{`noise`}{Is the measure noisy (a random learner, or resampling that
#'   is not fixed)? Default `FALSE`: a deterministic objective, which costbo
#'   does not evaluate twice at a configuration. See `noise` of
#'   [bo_problem()]. (Earlier versions of costbo called this parameter
#'   `noisy`; mlr3 parameter sets have no aliases, so `noisy` is no longer
#'   accepted.)}
#' \item{`gp_args`}{Settings of the Gaussian processes, passed to
#'   [bo_session()].}
#' }
#'
#' @section Budget:
#' The tuner keeps to the budget by the rule of [bo_optimize()]
#' (`budget_rule = "feasible"`): an evaluation starts only when it fits in
#' what remains of the budget, a known cost (`cost` a function) exactly and
#' a measured one when the cost model (its GP on the log cost) gives it
#' probability at least `budget_prob` of fitting; when the policy's
#' proposal does not fit, the configuration the policy values most among
#' those that fit is evaluated instead, and the tuning ends when none fits.
#' The budget can then be exceeded only by the last evaluation, which was
#' predicted to fit. The archive records, for each configuration after the
#' initial design, what its cost was predicted to be: `cost_predicted`
#' (for a measured cost the calibrated predictive median, see the section
#' on budget accounting of [bo_optimize()]), `cost_lower` and `cost_upper`
#' (its 90% interval) and `prob_fit` (the probability that it fitted in the
#' budget left, which the rule compared with `budget_prob`); `NA` for the
#' initial design. `tuner$run` also records the cost the rule counted on,
#' the `budget_prob` quantile of that prediction (`cost_bound`).
#'
#' The initial design keeps the same rule as the design
#' of [bo_optimize()] (see [bo_budget]): it never starts a configuration
#' that does not fit, and the default design ends once a model can be
#' fitted rather than spend more than a quarter of the budget. It goes to
#' `inst$eval_batch()` in as few batches as this allows, so that a parallel
#' backend of mlr3 (e.g. `future::plan("multisession")`) evaluates it at
#' once: in one batch when its costs are not charged, in batches of the
#' configurations whose known costs fit together (an evaluation terminator
#' caps a batch at the evaluations it still allows). A charged measured
#' cost is known only once paid, so that design goes one configuration per
#' batch, as [bo_optimize()]'s: it ends within its share of the budget plus
#' its last evaluation, and the whole tuning within the budget plus its
#' last evaluation. A budget too small for the configurations a model needs
#' ends the tuning inside its design, with what it has. Every proposal
#' after the design is a batch of one. The tuner also stops when the instance's
#' terminator says so, when the space of a deterministic objective is
#' exhausted, and when the policy fails (with a warning).
#'
#' @section Results:
#' The costbo problem follows the measure's direction: a measure that is
#' minimized (`measure$minimize`, e.g. `classif.ce`) makes a problem with
#' `maximize = FALSE` (see [bo_problem()]), whose reports give the measure
#' itself. The instance's
#' result is the best configuration of its archive, as for every mlr3
#' tuner. The tuner keeps the costbo side of the last tuning: `tuner$run`
#' is a `bo_run` (for [summary()][summary.bo_run()], [as.data.frame()],
#' [plot()][plot.bo_run()], with the measure's values),
#' and `tuner$session` the same state as a [bo_session()] (to continue by
#' hand with [bo_ask()] and [bo_tell()]). `tuner$run$stop_reason` says why
#' the tuning stopped.
#'
#' @family mlr3
#' @seealso [as_bo_space()], which converts the search space.
#' @examples
#' if (requireNamespace("mlr3tuning", quietly = TRUE) &&
#'     requireNamespace("rpart", quietly = TRUE)) {
#'   learner <- mlr3::lrn("classif.rpart",
#'     cp = paradox::to_tune(1e-3, 0.1, logscale = TRUE),
#'     minsplit = paradox::to_tune(2, 32))
#'   instance <- mlr3tuning::ti(task = mlr3::tsk("sonar"), learner = learner,
#'     resampling = mlr3::rsmp("holdout"),
#'     measures = mlr3::msr("classif.ce"),
#'     terminator = bbotk::trm("evals", n_evals = 10))
#'   tuner <- mlr3tuning::tnr("costbo", policy = policy_ei_pu(), budget = 1)
#'   set.seed(1)
#'   tuner$optimize(instance)
#'   print(instance$result)
#'   print(summary(tuner$run))
#'   plot(tuner$run)
#' }
NULL

# The R6 methods below refer to R6's self, private and super.
utils::globalVariables(c("self", "private", "super"))

# Make the R6 class TunerBatchCostbo (mlr3tuning, paradox and R6 loaded).
costbo_tuner_class <- function() {
  R6::R6Class("TunerBatchCostbo",
    inherit = mlr3tuning::TunerBatch,
    public = list(
      initialize = function() {
        param_set <- paradox::ps(
          policy = paradox::p_uty(tags = "required",
                                  custom_check = check_tuner_policy),
          budget = paradox::p_dbl(lower = 0, tags = "required"),
          cost = paradox::p_uty(tags = "required",
                                custom_check = check_tuner_cost),
          n_init = paradox::p_int(lower = 1L, special_vals = list(NULL)),
          charge_initial = paradox::p_lgl(),
          budget_prob = paradox::p_dbl(lower = 0, upper = 1),
          noise = paradox::p_lgl(),
          gp_args = paradox::p_uty(custom_check = function(x) {
            if (is.list(x)) TRUE else "must be a list"
          })
        )
        param_set$values <- list(policy = policy_ei_pu_cc(),
                                 cost = "runtime_learners", n_init = NULL,
                                 charge_initial = TRUE, budget_prob = 0.9,
                                 noise = FALSE,
                                 gp_args = list())
        super$initialize(
          id = "costbo", param_set = param_set,
          param_classes = c("ParamDbl", "ParamInt", "ParamFct", "ParamLgl"),
          properties = "single-crit", packages = "costbo",
          label = "Cost-Aware Bayesian Optimization",
          man = "costbo::mlr_tuners_costbo")
      }
    ),
    active = list(
      run = function(rhs) {
        if (!missing(rhs)) {
          stop(costbo_condition("costbo_error", "`run` is read-only."))
        }
        private$.run
      },
      session = function(rhs) {
        if (!missing(rhs)) {
          stop(costbo_condition("costbo_error", "`session` is read-only."))
        }
        if (is.null(private$.run)) return(NULL)
        structure(unclass(private$.run), class = "bo_session")
      }
    ),
    private = list(
      .run = NULL,
      .optimize = function(inst) {
        private$.run <- NULL
        tuner_optimize(self, private, inst)
      }
    )
  )
}

check_tuner_policy <- function(x) {
  if (inherits(x, "bo_policy")) TRUE else
    "must be a costbo policy, e.g. policy_ei_pu_cc()"
}

check_tuner_cost <- function(x) {
  if (is.function(x) ||
      (is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x))) {
    TRUE
  } else "must be the name of an archive column or a function"
}

# The tuning loop of TunerBatchCostbo: costbo's initial design, then the
# steps of bo_optimize() (state_propose(), step_decide()), every
# configuration evaluated by inst$eval_batch(), then recorded.
# The state is written to private$.run as it grows, so that it survives a
# termination signalled from eval_batch().
tuner_optimize <- function(self, private, inst) {
  call <- sys.call(-1L)
  pv <- self$param_set$get_values()
  budget <- check_number(pv$budget, min = 0, min_open = TRUE, arg = "budget",
                         call = call)
  spec <- paradox_spec(inst$search_space, call)
  ycol <- inst$archive$cols_y
  direction <- inst$archive$codomain$direction[[ycol]]
  cost <- pv$cost
  known <- is.function(cost)
  charge_initial <- !isFALSE(pv$charge_initial)
  prob <- bo_problem(function(x) NA, space = spec$space,
                     cost = if (known) cost, budget = budget,
                     noise = isTRUE(pv$noise), maximize = direction < 0,
                     name = paste("tuning", inst$objective$id))
  gp_args <- if (is.null(pv$gp_args)) list() else pv$gp_args
  prob <- check_problem_policy(prob, pv$policy, call)
  gp_args <- check_model_args(gp_args, call = call)
  budget_prob <- check_budget_prob(if (is.null(pv$budget_prob)) 0.9 else
    pv$budget_prob, call = call)
  # (the tuner runs its own design, charged as charge_initial says)
  state <- new_session(prob, pv$policy, NULL, FALSE, gp_args, "feasible",
                       budget_prob, call, charge_design = charge_initial,
                       plan = FALSE)
  state$started <- Sys.time()
  # the default design: 2 (k + 1) points for k settings, within a quarter
  # of the budget when charged (see bo_optimize())
  cap <- is.null(pv$n_init)
  n_init <- if (cap) default_n_init(prob) else as.integer(pv$n_init)
  stop_with <- function(code, reason = stop_reasons[[code]]) {
    state <- stop_run(state, code, reason)
    private$.run <- structure(state, class = "bo_run")
    invisible(NULL)
  }
  # the known cost of a step (an error naming `cost` when it has none)
  price <- function(step) {
    pc <- problem_price(prob, step)
    if (nzchar(pc$message)) stop_arg("cost", sprintf(
      "a function giving a positive cost (%s)", pc$message), show = FALSE,
      call = call)
    pc$cost
  }
  # evaluate the typed points ps (a list, of known costs c_known) in one
  # batch; NULL when the instance is terminated, else a list of
  # list(value, cost), one per point
  evaluate <- function(ps, c_known) {
    if (inst$is_terminated) return(NULL)
    xdt <- data.table::rbindlist(lapply(ps, function(p) paradox_xdt(spec, p)))
    ydt <- tryCatch(inst$eval_batch(xdt),
                    Mlr3ErrorBbotkTerminated = function(e) NULL,
                    terminated_error = function(e) NULL)
    if (is.null(ydt)) return(NULL)
    # (the predicted costs' columns, NA until a step predicts one)
    tuner_archive_prediction(inst$archive, NA, NULL)
    n <- inst$archive$n_evals - length(ps)
    lapply(seq_along(ps), function(i) {
      y <- ydt[[ycol]][i]
      c_ <- if (known) c_known[i] else
        tuner_measured_cost(inst$archive$data, n + i, cost, call)
      if (known) tuner_archive_cost(inst$archive, n + i, c_)
      # the measure's value, in its direction (bo_tell() takes it so)
      list(value = if (is.finite(y)) y else NA_real_, cost = c_)
    })
  }
  private$.run <- structure(state, class = "bo_run")
  design <- problem_design(prob, n_init)$x
  steps <- lapply(seq_len(nrow(design)), function(r) new_step(design[r, ]))
  prices <- if (known) vapply(steps, price, 0)
  k <- 0L
  while (k < length(steps)) {
    if (state$spent >= budget && charge_initial) {
      return(stop_with("budget", "budget spent (during the initial design)"))
    }
    # the next points of the design go in one batch while the rule of a
    # charged design (design_ends(), as in bo_optimize() and its
    # asynchronous loop) lets them start together, the batch's points
    # counting as pending at their known costs; a charged measured cost
    # is known only once paid, so its design starts one point at a time,
    # as bo_optimize()'s, and ends within its share of the budget plus its
    # last evaluation (a batch priced at the costs seen could overrun the
    # share by a batch: forests of 10 to 1000 trees, 63% of the budget);
    # an unpaid design goes in one batch
    one_at_a_time <- charge_initial && !known
    batch <- integer()
    committed <- 0
    end <- NULL
    for (j in (k + 1L):length(steps)) {
      if (length(batch) >= tuner_evals_left(inst)) break
      if (one_at_a_time && length(batch)) break
      pc <- list(cost = if (known) prices[j] else NA_real_, message = "")
      end <- design_ends(state, steps[[j]], pc, cap, committed, length(batch))
      if (!is.null(end)) break
      batch <- c(batch, j)
      committed <- committed + async_bound(state, steps[[j]],
                                           if (known) prices[j] else NA_real_,
                                           "initial")
    }
    if (!length(batch)) {
      # (a wait needs a pending point, so the design ends here)
      if (!is.null(end$code)) return(stop_with(end$code, end$reason))
      break
    }
    evs <- evaluate(lapply(steps[batch], function(st) space_point(spec$space, st$x)),
                    prices[batch])
    if (is.null(evs)) return(stop_with("terminated"))
    for (i in seq_along(batch)) {
      ok <- !is.na(evs[[i]]$value)
      state <- state_record(state, steps[[batch[i]]],
                            user_value(prob, evs[[i]]$value),
                            evs[[i]]$cost, "initial",
                            status = if (ok) "ok" else "error",
                            message = if (ok) "" else "no value")
    }
    private$.run <- structure(state, class = "bo_run")
    k <- max(batch)
  }
  if (sum(state_ok(state)) < 2L) {
    return(stop_with("objective_failed", paste(
      "fewer than two configurations of the initial design have a value")))
  }
  repeat {
    if (state$spent >= budget) return(stop_with("budget"))
    p <- tryCatch(state_propose(state), error = function(e) e)
    if (inherits(p, "error")) {
      warning(costbo_condition(
        c("costbo_warning_policy", "costbo_warning"),
        sprintf("costbo's policy failed, the tuner stops: %s",
                conditionMessage(p)), type = "warning"))
      return(stop_with(policy_failure_code(p), policy_failure_reason(p)))
    }
    state <- p$state
    # the step engine of bo_optimize() decides: the budget rule (a measured
    # cost fits with probability budget_prob), a repeated failure, an
    # exhausted space
    d <- step_decide(state, p)
    if (d$action == "fail") {
      stop_arg("cost", sprintf("a function giving a positive cost (%s)",
                               d$ev$message), show = FALSE, call = call)
    }
    if (d$action == "stop") {
      state$declined <- d$declined
      return(stop_with(d$code, d$reason))
    }
    step <- d$step
    guess <- if (known) d$cost else tuner_cost_bound(state, step)
    ev <- evaluate(list(space_point(spec$space, step$x)), guess)[[1L]]
    if (is.null(ev)) return(stop_with("terminated"))
    ok <- !is.na(ev$value)
    # evaluated, then recorded, with the cost the budget check counted on
    state <- state_record(state, step, user_value(prob, ev$value), ev$cost,
                          "bo", status = if (ok) "ok" else "error",
                          message = if (ok) "" else "no value reported",
                          fit_time = p$fit_time, policy_time = p$policy_time,
                          rule_time = d$p$rule_time,
                          info = c(d$p$info, list(cost_bound = guess)))
    state <- state_record_prediction(state, d$p$prediction)
    tuner_archive_prediction(inst$archive, inst$archive$n_evals,
                             d$p$prediction)
    state$memory <- d$p$memory
    state$iteration <- state$iteration + 1L
    private$.run <- structure(state, class = "bo_run")
  }
}

# How many evaluations the instance's terminator still allows: the
# remaining count of an evaluation terminator, else no limit (every other
# terminator is checked by the instance before each batch).
tuner_evals_left <- function(inst) {
  term <- inst$terminator
  if (!inherits(term, "TerminatorEvals")) return(.Machine$integer.max)
  st <- term$status(inst$archive)
  max(1L, as.integer(st[["max_steps"]] - st[["current_steps"]]))
}

# The measured cost of archive row n: column `col`; a time of 0 (below the
# clock's resolution) is charged as 0.001 s.
tuner_measured_cost <- function(data, n, col, call) {
  if (!col %in% names(data)) {
    stop_arg("cost", sprintf("the name of a column of the archive (%s)",
                             paste(names(data), collapse = ", ")), col,
             call = call)
  }
  v <- data[[col]][n]
  if (identical(col, "runtime_learners") && is.numeric(v) && isTRUE(v == 0)) {
    v <- 0.001
  }
  if (!(is.numeric(v) && length(v) == 1L && (is.na(v) || (is.finite(v) &&
                                                            v > 0)))) {
    stop_arg("cost", sprintf(paste("a column of positive costs (archive",
                                   "column %s, row %d, is %s)"), col, n,
                             describe_value(v)), show = FALSE, call = call)
  }
  as.double(v)
}

# Write the known cost c_ into column "cost" of archive row n.
tuner_archive_cost <- function(archive, n, c_) {
  data <- archive$data
  if (!"cost" %in% names(data)) {
    data.table::set(data, j = "cost", value = NA_real_)
  }
  data.table::set(data, i = as.integer(n), j = "cost", value = c_)
  archive$data <- data
  invisible(NULL)
}

# The cost the budget rule counted on at the step `step` of a fitted state:
# the budget_prob quantile of its cost's calibrated prediction
# (cost_quantile(), cost-predict.R), which fitted in the remaining budget;
# without a model, the geometric mean of the costs seen (0 before any).
tuner_cost_bound <- function(state, step) {
  cost_quantile(state, matrix(step$x, 1L), state$budget_prob)
}

# Write the prediction `pred` of a configuration's cost (cost_predict_step()
# as the step engine made it; NULL: none) into the columns cost_predicted,
# cost_lower, cost_upper and prob_fit of archive row n; the columns are
# made on first use, NA for the configurations of the initial design.
tuner_archive_prediction <- function(archive, n, pred) {
  data <- archive$data
  for (k in cost_record_columns) {
    if (!k %in% names(data)) data.table::set(data, j = k, value = NA_real_)
    if (!is.null(pred)) {
      data.table::set(data, i = as.integer(n), j = k,
                      value = as.double(pred[[k]]))
    }
  }
  archive$data <- data
  invisible(NULL)
}
