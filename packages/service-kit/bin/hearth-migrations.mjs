#!/usr/bin/env node
console.error("hearth-migrations: not yet built");
process.exit(1);
