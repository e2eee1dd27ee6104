# Replaced functions and renamed arguments. A function replaced by others
# keeps working for one release (deprecated_function(), at the end).
# Arguments renamed so that each name means one thing across the package
# (`model` is a fitted GP, `noise` a variance, `cost` a cost function or
# number, `beta` the UCB weight). The old names keep working for one
# release, with a warning of class "costbo_warning_deprecated".

# The renamed arguments: new name = old name. (Each new name has one old
# one.) An error about an argument given by its old name names it so (see
# arg_as_given()).
renamed_args <- c(gp_args = "model", processes = "workers", noise = "noisy",
                  noise_sd = "noise", decay = "beta", cost_family = "cost",
                  cost_set = "costs", source_costs = "costs")

# How an error names argument `arg` (a name, or a path such as
# "gp_args$cost") of the user's call `call`: by its old name, "`model`
# (now `gp_args`)", when the call gave it by that name; else `arg`
# itself, between backticks.
arg_as_given <- function(arg, call) {
  quoted <- sprintf("`%s`", arg)
  top <- sub("[$[].*$", "", arg)
  old <- renamed_args[top]
  given <- if (is.call(call)) names(call) else NULL
  if (is.na(old) || !(old %in% given) || top %in% given) return(quoted)
  sprintf("`%s%s` (now `%s`)", old, substring(arg, nchar(top) + 1L), top)
}

# The value of a renamed argument given by its old name `old`; `both`:
# whether the new name `new` was given too (an error).
renamed_arg <- function(value, old, new, both, call = sys.call(-1L)) {
  if (both) {
    stop_arg(old, sprintf("left out when its new name `%s` is given", new),
             value, call = call)
  }
  warning(costbo_condition(c("costbo_warning_deprecated", "costbo_warning"),
                           sprintf("`%s` is deprecated: use `%s`", old, new),
                           user_call(call), type = "warning"))
  value
}

# A deprecated function `old`: a warning of class costbo_warning_deprecated
# naming `new`, the call to use instead, and `note` (what it differs in).
deprecated_function <- function(old, new, note = NULL, call = sys.call(-1L)) {
  msg <- sprintf("`%s()` is deprecated: use `%s`%s", old, new,
                 if (is.null(note)) "" else paste0(" (", note, ")"))
  warning(costbo_condition(c("costbo_warning_deprecated", "costbo_warning"),
                           msg, user_call(call), replacement = new,
                           type = "warning"))
  invisible(NULL)
}
