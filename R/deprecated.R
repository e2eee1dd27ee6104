# Replaced functions and renamed arguments. A function replaced by others
# keeps working for one release (deprecated_function(), at the end).
# Arguments renamed so that each name means one thing across the package
# (`model` is a fitted GP, `noise` a variance, `cost` a cost function or
# number, `beta` the UCB weight). The old names keep working for one
# release, with a warning of class "costbo_warning_deprecated"; their table,
# `renamed_args`, is in checks.R, whose errors name an argument as the user
# gave it (arg_as_given()).

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
