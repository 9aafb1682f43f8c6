fn main() -> std::process::ExitCode {
    hookmux::cli::main()
}
