"""External services the incidents need, run as real processes with injectable faults."""
