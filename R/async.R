# Asynchronous runs: up to k evaluations at once, on the workers of the
# user's `future` plan or on k virtual workers of a simulated clock. An
# event loop launches evaluations while workers are free and the budget,
# counting the pending evaluations' costs, allows; when one completes it is
# recorded, the models are refitted and the policy proposes the next point
# given the pending ones, which enter the models as kriging-believer
# fantasies. The sequential loop (loop.R) is the case k = 1 on the real
# clock; with k = 1 on the simulated clock this loop gives its trace.

#' Asynchronous evaluations on several workers
#'
#' With `workers = k` (k > 1), [bo_optimize()] keeps up to k evaluations
#' running at once. When one finishes, its result is recorded, the models
#' are refitted to the finished evaluations, and the policy proposes the
#' next point given the pending ones.
#'
#' @section Pending points:
#' Pending evaluations enter the objective's model as *kriging-believer*
#' fantasies (Ginsbourger, Le Riche and Carraro 2010): the GP fitted to the
#' finished evaluations is conditioned, with its hyperparameters unchanged,
#' on an observation equal to its posterior mean at each pending point, and
#' the fantasized values count as observations for the incumbent. The
#' posterior variance at and near a pending point collapses, so its expected
#' improvement (and that of every policy built on the model) vanishes there
#' and the free worker is sent elsewhere. With a measured cost, the GP of
#' the log cost is conditioned the same way. On a typed space with a
#' deterministic objective a pending typed point counts as evaluated.
#' Every policy for problems over a box, a finite set of candidates or a
#' typed space works on the fantasy state, lookahead policies included
#' (their scenario trees and rollouts start from the fantasized model);
#' problems with control sets or information sources are refused before
#' anything is paid.
#'
#' @section Budget:
#' A point is launched only when the spent budget, plus the costs of the
#' pending evaluations, plus its own cost fits in the budget. A pending
#' evaluation counts with its known cost or, for a measured cost, with the
#' posterior mean of the log-cost GP's cost, \eqn{\exp(m + s^2/2)}, at
#' launch (the geometric mean of the costs seen while they cannot be
#' modelled); its true cost replaces it when it finishes, so a measured
#' cost can still end over the budget (`within_budget` keeps its meaning).
#' A known-cost proposal that does not fit while evaluations are pending
#' waits for the next one to finish and is proposed again; the run stops
#' when nothing is pending and the next point does not fit. The cost-cooling
#' exponent of [policy_ei_pu_cc()] and the remaining budget of
#' [policy_q1()] and the lookahead policies count the pending costs as
#' spent. With `max_evaluations`, launched evaluations count.
#'
#' @section Back ends and clocks:
#' With `clock = "real"`, evaluations run as futures of the current
#' [future::plan()] (multisession, cluster, or a scheduler through
#' \pkg{future.batchtools}); `workers` must not exceed
#' [future::nbrOfWorkers()]. Each evaluation gets its own L'Ecuyer-CMRG
#' stream, drawn from R's generator at launch. The times recorded are
#' seconds since the run started.
#'
#' With `clock = "simulated"`, the k workers are virtual: an evaluation runs
#' in this R session when it is launched and finishes `cost` time units
#' later on a simulated clock (the convention of benchmarks for
#' hyperparameter optimization; a failed evaluation of unknown cost takes
#' no time, the time of proposals none either). Its result is revealed to
#' the models only then, in the order of the simulated finishing times
#' (ties by launch order). A run is then deterministic under `set.seed()`,
#' whatever the back end that runs it, and with `workers = 1` it is the
#' sequential run, evaluation for evaluation. [bo_benchmark()] uses it with
#' `virtual_workers`.
#'
#' The records are in finishing order; `launch` (launch order), `worker`,
#' `t_launch` and `t_done` are columns of [as.data.frame.bo_run()], and the
#' run's `clock` is the time its last evaluation finished. On real workers
#' `t_done` is the time the worker reported finishing (on the session's
#' clock, between the launch and the moment the result was collected), not
#' the time the session collected the result.
#'
#' @section Failures, interrupts and checkpoints:
#' An error in the objective is recorded as in the sequential loop. A
#' worker that is lost (its process dies, the scheduler cancels its job) is
#' recorded as a failed evaluation of that point; its cost is charged when
#' it is known (the worker was used), not when it is measured. No other
#' evaluation is lost: with `on_error = "stop"` the run launches nothing more
#' and waits for the pending evaluations, which are recorded. An interrupt
#' first records every evaluation that has finished on a worker (also one
#' that finished while a proposal was being made and was not yet
#' collected), then cancels the pending futures (where the back end can);
#' those stay pending in the checkpoint. Checkpoints are written at every launch and every
#' finish and record the pending points; [bo_resume()] launches them again
#' (with their streams) before proposing new ones, and on the simulated
#' clock continues the run exactly.
#'
#' @references
#' Ginsbourger, D., Le Riche, R. and Carraro, L. (2010). Kriging is
#' well-suited to parallelize optimization. In *Computational Intelligence in
#' Expensive Optimization Problems*, Springer, 131--162.
#' @name bo_async
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 20)
#' # four virtual workers: each evaluation takes its cost in simulated time
#' run <- bo_optimize(prob, policy_ei_pu(), workers = 4, clock = "simulated",
#'                    seed = 1, progress = FALSE)
#' run$clock
#' head(as.data.frame(run)[, c("launch", "worker", "t_launch", "t_done")])
#' \donttest{
#' if (requireNamespace("future", quietly = TRUE)) {
#'   # two local R processes; future.batchtools::batchtools_slurm would send
#'   # the evaluations to a Slurm scheduler instead
#'   old <- future::plan(future::multisession, workers = 2)
#'   run2 <- bo_optimize(test_problem("branin", budget = 10), policy_ei_pu(),
#'                       workers = 2, seed = 1, progress = FALSE)
#'   future::plan(old)
#' }
#' }
NULL

# --- checks --------------------------------------------------------------------

# The checked `workers` and `clock` of bo_optimize(): an error naming
# `workers` when the problem or the back end cannot run k evaluations at
# once.
check_async <- function(workers, clock, problem, call) {
  if (workers == 1L && clock == "real") return(invisible(TRUE))
  if (inherits(problem, c("bo_problem_cvs", "bo_problem_miso"))) {
    stop_arg("workers", paste("1 for problems with control sets or",
                              "information sources (their steps are not",
                              "points that can be fantasized)"),
             workers, call = call)
  }
  if (clock == "real") {
    if (!requireNamespace("future", quietly = TRUE)) {
      stop_arg("workers", paste("1 unless the future package is installed",
                                "(or use clock = \"simulated\")"),
               workers, call = call)
    }
    nw <- future::nbrOfWorkers()
    if (is.finite(nw) && workers > nw) {
      stop_arg("workers", sprintf(paste(
        "at most the number of workers of the current future plan (%d);",
        "set one with future::plan()"), as.integer(nw)), workers, call = call)
    }
  }
  invisible(TRUE)
}

# --- the fantasy state -----------------------------------------------------------

# The cost a pending evaluation counts with while it runs: its known price,
# or for a measured cost the log-cost GP's mean cost exp(m + s^2 / 2) at
# the step (the geometric mean of the costs seen while they cannot be
# modelled; 0 before any is seen); 0 when its phase is not charged.
async_bound <- function(state, step, cost, phase) {
  if (phase == "initial" && !state$charge_initial) return(0)
  if (!is.na(cost)) return(cost)
  cm <- state$models$cost
  if (!is.null(cm)) {
    pr <- predict(cm, matrix(step$x, 1L))
    return(exp(pr$mean + pr$sd^2 / 2))
  }
  seen <- state_seen_cost(state)
  if (is.na(seen)) 0 else seen
}

# The costs counted on for the pending evaluations.
async_pending_cost <- function(state) {
  sum(vapply(state$pending, function(e) e$bound, numeric(1)))
}

# The state a policy sees while evaluations are pending, from a state whose
# models are fitted to the finished evaluations: each pending step recorded
# with the objective model's posterior mean as its value and its bound as
# its cost (so the incumbent counts the fantasized values and the remaining
# budget the pending costs), the objective's GP (and a measured cost's
# log-cost GP) conditioned on those means with their hyperparameters kept:
# the kriging believer.
async_fantasy_state <- function(state) {
  pend <- state$pending
  if (!length(pend)) return(state)
  pr <- state$problem
  n0 <- length(state$value)
  f <- state
  for (e in pend) {
    f <- state_record(f, e$step, NA_real_, e$bound, "bo")
  }
  f$budget_start <- state$budget_start
  rows <- n0 + seq_along(pend)
  Xm <- problem_model_x(pr, f, rows)
  model <- state$models$f
  mu <- predict(model, Xm, sd = FALSE)$mean
  f$value[rows] <- mu
  f$models$f <- gp_condition(model, Xm, mu)
  cm <- state$models$cost
  if (!is.null(cm)) {
    Xc <- f$X[rows, , drop = FALSE]
    f$models$cost <- gp_condition(cm, Xc, predict(cm, Xc, sd = FALSE)$mean)
  }
  f
}

# Fit the models to the finished evaluations and ask the policy given the
# pending ones (state_propose() when none is pending).
async_propose <- function(state) {
  t0 <- proc.time()[["elapsed"]]
  state <- state_fit(state)
  t1 <- proc.time()[["elapsed"]]
  fs <- async_fantasy_state(state)
  p <- state$policy$propose(fs)
  t2 <- proc.time()[["elapsed"]]
  step <- proposal_step(state$problem, p, fs)
  list(step = step, x = step$x, info = p$info, memory = p$memory,
       fit_time = t1 - t0, policy_time = t2 - t1, state = state,
       fantasy = fs)
}

# --- back ends ---------------------------------------------------------------------

# A back end: launch(state, e) starts the pending evaluation e (a list of
# step, cost, launch, ...) and returns it; wait(state) returns list(i, ev,
# t_done), the index in state$pending of the next evaluation to finish, its
# evaluation (as evaluate_step() returns it) and the time it finished;
# finished(state) the evaluations that have finished and not been waited
# for, each as list(launch, ev, t_done), in finishing order; cancel(state)
# stops what runs; now(state) is the clock.

# The simulated clock: an evaluation runs at launch, in this session, and
# finishes its cost later; its result waits in the pending entry.
async_simulated <- function() {
  list(
    now = function(state) state$clock,
    launch = function(state, e) {
      e$result <- evaluate_step(state$problem, e$step, e$cost)
      took <- e$result$cost
      e$t_done <- state$clock + if (is.na(took)) 0 else took
      e
    },
    wait = function(state) {
      t <- vapply(state$pending, function(e) e$t_done, numeric(1))
      l <- vapply(state$pending, function(e) e$launch, numeric(1))
      i <- order(t, l)[1L]
      list(i = i, ev = state$pending[[i]]$result, t_done = t[i])
    },
    # on this clock a pending evaluation has not finished until its time
    # comes: an interrupt keeps it pending (and bo_resume() continues)
    finished = function(state) list(),
    cancel = function(state) invisible(NULL),
    relaunch = function(e) is.null(e$result)
  )
}

# The evaluation a future runs on a worker, with the time it finished on
# the worker's clock (`finished`, seconds since the epoch), so that its
# `t_done` is when it finished, not when the session collected it.
async_evaluate <- function(problem, step, cost) {
  ev <- evaluate_step(problem, step, cost)
  ev$finished <- as.numeric(Sys.time())
  ev
}

# The environment of the future that evaluates pending entry e, and its
# expression (`expr`): the problem, the step and its known price, and the
# user's own functions (objective, cost) named in the expression, so that
# future exports what they use from the session (the globals of functions
# are found by scanning them, not the lists that hold them).
async_future_env <- function(problem, e) {
  env <- new.env(parent = globalenv())
  user <- list(problem$user_objective, problem$user_cost,
               problem$objective, problem$cost)
  user <- Filter(function(f) is.function(f) && is.null(attr(f, "costbo_cost")),
                 user)
  refs <- list()
  for (i in seq_along(user)) {
    nm <- sprintf("user_function_%d", i)
    assign(nm, user[[i]], envir = env)
    refs[[i]] <- as.name(nm)
  }
  env$evaluate <- async_evaluate
  env$problem <- problem
  env$step <- e$step
  env$cost <- e$cost
  env$expr <- as.call(c(as.name("{"), refs,
                        quote(evaluate(problem, step, cost))))
  env
}

# The user's future plan: each evaluation a future with its own
# L'Ecuyer-CMRG stream; futures are kept by launch number in an environment
# of the back end (not in the state, which checkpoints save). An
# evaluation's finishing time is the one its worker reported (on the
# session's clock, at least its launch and at most now).
async_future <- function(state) {
  futures <- new.env(parent = emptyenv())
  base <- state$clock
  t0 <- proc.time()[["elapsed"]]
  t0_sys <- as.numeric(Sys.time())
  now <- function(state) base + proc.time()[["elapsed"]] - t0
  key <- function(e) as.character(e$launch)
  # results collected from their futures and not yet handed to the loop,
  # by launch number: list(launch, ev, t_done)
  kept <- new.env(parent = emptyenv())
  # the result of pending entry e, whose future is resolved
  fetch <- function(state, e) {
    k <- key(e)
    if (!is.null(kept[[k]])) return(kept[[k]])
    ev <- tryCatch(future::value(futures[[k]]), error = function(err) err)
    rm(list = k, envir = futures)
    t <- now(state)
    if (inherits(ev, "error")) {
      ev <- async_lost(state$problem, e, ev)
    } else if (is.numeric(ev$finished) && length(ev$finished) == 1L &&
               is.finite(ev$finished)) {
      t <- min(t, max(e$t_launch, base + ev$finished - t0_sys))
    }
    ev$finished <- NULL
    kept[[k]] <- list(launch = e$launch, ev = ev, t_done = t)
  }
  # the finished pending evaluations, collected, in finishing order (ties
  # by launch)
  ready <- function(state) {
    # (a result the loop has recorded is no longer pending)
    launched <- vapply(state$pending, `[[`, 0, "launch")
    stale <- setdiff(ls(kept), as.character(launched))
    rm(list = stale, envir = kept)
    fin <- Filter(function(e) {
      f <- futures[[key(e)]]
      !is.null(kept[[key(e)]]) || (!is.null(f) && future::resolved(f))
    }, state$pending)
    got <- lapply(fin, function(e) fetch(state, e))
    got[order(vapply(got, `[[`, 0, "t_done"), vapply(got, `[[`, 0, "launch"))]
  }
  index <- function(state, launch) {
    which(vapply(state$pending, `[[`, 0, "launch") == launch)[1L]
  }
  list(
    now = now,
    launch = function(state, e) {
      env <- async_future_env(state$problem, e)
      futures[[key(e)]] <- future::future(
        env$expr, substitute = FALSE, envir = env, seed = e$seed,
        packages = "costbo")
      e
    },
    wait = function(state) {
      repeat {
        got <- ready(state)
        if (length(got)) {
          # (kept until it is recorded: an interrupt before then records it)
          g <- got[[1L]]
          return(list(i = index(state, g$launch), ev = g$ev,
                      t_done = g$t_done))
        }
        Sys.sleep(0.005)
      }
    },
    finished = function(state) ready(state),
    cancel = function(state) {
      # cancel (where future can) and collect, so that the plan's registry
      # keeps no cancelled future to warn about at its next launch
      can <- "cancel" %in% getNamespaceExports("future")
      for (k in ls(futures)) {
        if (can) {
          try(getExportedValue("future", "cancel")(futures[[k]]),
              silent = TRUE)
        }
        suppressWarnings(tryCatch(future::value(futures[[k]]),
                                  error = function(e) NULL))
      }
      rm(list = ls(futures), envir = futures)
      rm(list = ls(kept), envir = kept)
      invisible(NULL)
    },
    relaunch = function(e) TRUE
  )
}

# The record of an evaluation whose worker was lost (its future failed):
# failed, its known cost charged, a measured one unknown.
async_lost <- function(problem, e, err) {
  known <- problem$cost_type != "measured"
  list(value = NA_real_, cost = if (known) e$cost else NA_real_,
       status = "error",
       message = paste("the worker failed:", conditionMessage(err)),
       time = NA_real_, cost_valid = known, failed = TRUE)
}

# A L'Ecuyer-CMRG seed for one future, drawn from R's generator.
async_seed <- function() {
  c(10407L, sample.int(2147483646L, 6L, replace = TRUE))
}

# --- the loop ----------------------------------------------------------------------

# The run's evaluations so far get the asynchronous columns (NA for rows
# recorded before, e.g. `initial` points given by the user).
async_init <- function(state, ctl) {
  state$n_workers <- ctl$workers
  state$timing <- ctl$clock
  n <- length(state$value)
  pad <- function(v, na) if (length(v) == n) v else c(v, rep(na, n - length(v)))
  state$launch <- pad(state$launch, NA_integer_)
  state$worker <- pad(state$worker, NA_integer_)
  state$t_launch <- pad(state$t_launch, NA_real_)
  state$t_done <- pad(state$t_done, NA_real_)
  if (is.null(state$clock)) state$clock <- 0
  if (is.null(state$n_launched)) state$n_launched <- 0L
  if (is.null(state$pending)) state$pending <- list()
  state
}

# Launch the step in phase `phase` on a free worker: a pending entry, with
# the proposal p's timings and diagnostics (NULL for initial points).
async_launch <- function(state, ctl, be, step, phase, cost, p = NULL) {
  used <- vapply(state$pending, function(e) e$worker, integer(1))
  state$n_launched <- state$n_launched + 1L
  e <- list(step = step, cost = cost, phase = phase,
            bound = async_bound(state, step, cost, phase),
            launch = state$n_launched,
            worker = setdiff(seq_len(ctl$workers), used)[1L],
            t_launch = be$now(state),
            seed = if (ctl$clock == "real") async_seed(),
            fit_time = if (is.null(p)) NA_real_ else p$fit_time,
            policy_time = if (is.null(p)) NA_real_ else p$policy_time,
            rule_time = if (is.null(p)) NA_real_ else p$rule_time,
            info = if (is.null(p)) list() else p$info,
            prediction = p$prediction)
  e <- be$launch(state, e)
  state$pending <- c(state$pending, list(e))
  save_checkpoint(state, ctl)
}

# Record the finished evaluation ev of pending entry i at time t_done.
async_record <- function(state, ctl, i, ev, t_done) {
  e <- state$pending[[i]]
  state$pending[[i]] <- NULL
  state <- state_record(state, e$step, ev$value, ev$cost, e$phase,
                        status = ev$status, message = ev$message,
                        fit_time = e$fit_time, policy_time = e$policy_time,
                        eval_time = ev$time, info = e$info,
                        rule_time = e$rule_time)
  state <- state_record_prediction(state, e$prediction)
  state$launch <- c(state$launch, e$launch)
  state$worker <- c(state$worker, e$worker)
  state$t_launch <- c(state$t_launch, e$t_launch)
  state$t_done <- c(state$t_done, t_done)
  state$clock <- max(state$clock, t_done)
  if (e$phase == "initial") {
    state$initial_plan$done <- state$initial_plan$done + 1L
  } else {
    state$iteration <- state$iteration + 1L
  }
  state <- save_checkpoint(state, ctl)
  progress_evaluation(state, ctl)
  state
}

# A point whose known cost cannot be worked out is recorded at once as a
# failure of phase `phase` (nothing is launched or paid); p holds the
# proposal's timings and diagnostics.
async_record_now <- function(state, ctl, be, step, ev, phase, p = NULL) {
  state$n_launched <- state$n_launched + 1L
  e <- list(step = step, phase = phase, launch = state$n_launched,
            worker = NA_integer_, t_launch = be$now(state),
            fit_time = if (is.null(p)) NA_real_ else p$fit_time,
            policy_time = if (is.null(p)) NA_real_ else p$policy_time,
            rule_time = if (is.null(p)) NA_real_ else p$rule_time,
            info = if (is.null(p)) list() else p$info)
  state$pending <- c(state$pending, list(e))
  async_record(state, ctl, length(state$pending), ev, be$now(state))
}

# Launch while workers are free: the initial design first, then the
# policy's proposals given the pending evaluations. Returns list(state,
# stop): `stop` is NULL while the run goes on (possibly waiting for a
# pending evaluation), else list(code, reason) when nothing more will be
# launched.
async_fill <- function(state, ctl, be) {
  pr <- state$problem
  halt <- function(code, reason) {
    list(state = state, stop = list(code = code, reason = reason))
  }
  # an interrupt returns the state as it is (the evaluations launched so
  # far pending), so that the loop records what finished
  interrupted <- FALSE
  tryCatch(while (length(state$pending) < ctl$workers) {
    plan <- state$initial_plan
    if (!is.null(plan) && plan$launched < nrow(plan$x)) {
      k <- plan$launched + 1L
      step <- plan_step(plan, k)
      pc <- problem_price(pr, step)
      # the design's pending points and their costs count (design_ends())
      end <- design_ends(state, step, pc, isTRUE(plan$cap),
                         async_pending_cost(state), length(state$pending))
      if (isTRUE(end$wait)) break
      if (!is.null(end)) {
        state$initial_plan$x <- plan$x[seq_len(k - 1L), , drop = FALSE]
        if (!is.null(end$code)) return(halt(end$code, end$reason))
        next
      }
      state$initial_plan$launched <- k
      if (nzchar(pc$message)) {
        ev <- cost_failure(pc$message)
        state <- async_record_now(state, ctl, be, step, ev, "initial")
        if (ctl$on_error == "stop") {
          return(halt("cost_failed", failure_reason(ev, initial = TRUE)))
        }
      } else {
        state <- async_launch(state, ctl, be, step, "initial", pc$cost)
      }
      next
    }
    busy <- length(state$pending) > 0L
    if (state$spent + async_pending_cost(state) >= state$budget) {
      if (busy) break
      return(halt("budget", stop_reasons[["budget"]]))
    }
    launched_bo <- sum(state$phase == "bo") +
      sum(vapply(state$pending, function(e) e$phase == "bo", logical(1)))
    if (launched_bo >= run_max_evaluations(ctl)) {
      return(halt("max_evaluations", run_max_reason(ctl)))
    }
    # the models need finished evaluations: wait for them while some run
    if (busy && sum(state_ok(state)) < problem_min_data(pr)) break
    p <- tryCatch(async_propose(state), error = function(e) e)
    if (inherits(p, "error")) {
      return(halt(policy_failure_code(p), policy_failure_reason(p)))
    }
    state <- p$state
    if (ctl$pandora_stop && isTRUE(p$info$stop_rule)) {
      return(halt("pandora", stop_reasons[["pandora"]]))
    }
    # the step engine's decision, given the pending evaluations
    d <- step_decide(state, p, async_pending_cost(state), busy, p$fantasy)
    if (d$action == "wait") break
    if (d$action == "stop") {
      if (d$code == "budget") state$declined <- d$declined
      return(halt(d$code, d$reason))
    }
    state$memory <- d$p$memory
    if (d$action == "fail") {
      state <- async_record_now(state, ctl, be, d$step, d$ev, "bo", d$p)
      if (ctl$on_error == "stop") {
        return(halt(failure_code(d$ev), failure_reason(d$ev)))
      }
      next
    }
    state <- async_launch(state, ctl, be, d$step, "bo", d$cost, d$p)
  }, interrupt = function(e) interrupted <<- TRUE)
  list(state = state, stop = NULL, interrupted = interrupted)
}

# The asynchronous loop; returns a bo_run.
run_async <- function(state, ctl) {
  if (!is.null(state$stop_reason)) return(finish_run(state, ctl))
  state$skip_cost_failures <- ctl$on_error == "skip"
  state <- async_init(state, ctl)
  if (!is.null(state$initial_plan) && is.null(state$initial_plan$launched)) {
    # a plan of the sequential loop: its evaluated points are launched
    state$initial_plan$launched <- state$initial_plan$done
  }
  be <- if (ctl$clock == "simulated") async_simulated() else
    async_future(state)
  halt <- NULL
  # an interrupt records every evaluation that finished before it cancels
  # the others (which stay pending, for bo_resume())
  interrupted <- function(state) {
    for (g in be$finished(state)) {
      i <- which(vapply(state$pending, `[[`, 0, "launch") == g$launch)
      state <- async_record(state, ctl, i, g$ev, g$t_done)
    }
    be$cancel(state)
    stop_run(state, "interrupted")
  }
  result <- tryCatch({
    # a resumed run launches its pending evaluations again (on the
    # simulated clock, those whose results were not kept)
    for (i in seq_along(state$pending)) {
      if (be$relaunch(state$pending[[i]])) {
        state$pending[[i]] <- be$launch(state, state$pending[[i]])
      }
    }
    stopped <- FALSE
    repeat {
      if (is.null(halt)) {
        fill <- async_fill(state, ctl, be)
        state <- fill$state
        if (isTRUE(fill$interrupted)) {
          stopped <- TRUE
          break
        }
        halt <- fill$stop
      }
      if (!length(state$pending)) break
      nx <- be$wait(state)
      state <- async_record(state, ctl, nx$i, nx$ev, nx$t_done)
      if (is.null(halt) && isTRUE(nx$ev$failed) && ctl$on_error == "stop") {
        initial <- state$phase[length(state$phase)] == "initial"
        halt <- list(code = failure_code(nx$ev),
                     reason = failure_reason(nx$ev, initial = initial))
      }
    }
    if (stopped) {
      interrupted(state)
    } else {
      if (is.null(halt)) {
        halt <- list(code = "budget", reason = stop_reasons[["budget"]])
      }
      stop_run(state, halt$code, halt$reason)
    }
  }, interrupt = function(e) interrupted(state))
  finish_run(result, ctl)
}
