"""The audit's rules, one module per topic; each check reads an AppView and yields Hits."""
