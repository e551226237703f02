fn main() {
    std::process::exit(warpstone::cli::main());
}
