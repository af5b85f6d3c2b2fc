// RUN: not tmem-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not tmem-opt %s --split-input-file -o %t.out
// RUN: not test -e %t.out

// An error in one chunk is reported with its line in the whole file; the other chunks are
// still processed (their output goes to stdout), and the exit code is non-zero. With -o the
// output file is not written at all.

// CHECK-DAG: tmem_opt_split_input_file_errors.mlir:19:3: error: unregistered operation 'tcgen05.bad'
// CHECK-DAG: tmem_opt_split_input_file_errors.mlir:26:3: error: nCols must be a power of 2 in [32, 512], got 100
// CHECK-DAG: func.func @fine
func.func @fine() {
  func.return
}

// -----

func.func @parse_error() {
  tcgen05.bad
  func.return
}

// -----

func.func @verify_error(%a: i32) {
  tcgen05.dealloc %a, 100
  func.return
}
