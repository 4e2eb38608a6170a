// A library that forgot to define optiml_compare (or gave it C++ linkage).
int optiml_compare_typo(int x) {
    return x;
}
