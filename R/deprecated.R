# Arguments renamed so that each name means one thing across the package
# (`model` is a fitted GP, `noise` a variance, `cost` a cost function or
# number, `beta` the UCB weight). The old names keep working for one
# release, with a warning of class "costbo_warning_deprecated".

# The value of a renamed argument given by its old name `old`; `both`:
# whether the new name `new` was given too (an error).
renamed_arg <- function(value, old, new, both, call = sys.call(-1L)) {
  if (both) {
    stop_arg(old, sprintf("left out when its new name `%s` is given", new),
             value, call = call)
  }
  warning(structure(
    class = c("costbo_warning_deprecated", "costbo_warning", "warning",
              "condition"),
    list(message = sprintf("`%s` is deprecated: use `%s`", old, new),
         call = call)))
  value
}
