import path from "node:path";

/** Where an app keeps its Prisma files, relative to the app directory. */
export interface AppLayout {
  schemaPath: string;
  migrationsDir: string;
}

export function appLayout(appDir: string): AppLayout {
  return {
    schemaPath: path.join(appDir, "prisma", "schema.prisma"),
    migrationsDir: path.join(appDir, "prisma", "migrations"),
  };
}
