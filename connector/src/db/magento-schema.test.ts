/**
 * customer_entity and customer_address_entity are Magento 2.4's, column for column: the live table
 * definitions (information_schema of a freshly migrated store) have exactly the columns of
 * `app/code/Magento/Customer/etc/db_schema.xml`, with its types, lengths, signedness, NOT NULL
 * rules, defaults, identity and on-update behaviour. The lists below are copied from that file
 * (2.4-develop), attribute for attribute, so a difference shows up here rather than when the
 * connector is pointed at a real Magento database.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/mysql2/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "./client.ts";
import { ensureDatabase } from "@service/shared/node";
import { CONNECTOR_MIGRATIONS_FOLDER, migrateConnectorDatabase } from "./migrate.node.ts";

/** One `<column>` of db_schema.xml: its attributes as written there (absent ones absent). */
interface XmlColumn {
  type: "int" | "smallint" | "varchar" | "text" | "date" | "datetime" | "timestamp";
  name: string;
  unsigned?: boolean;
  nullable?: boolean;
  identity?: boolean;
  length?: number;
  default?: string;
  on_update?: boolean;
}

/** `<table name="customer_entity">` of Magento/Customer/etc/db_schema.xml. */
const CUSTOMER_ENTITY: XmlColumn[] = [
  { type: "int", name: "entity_id", unsigned: true, nullable: false, identity: true },
  { type: "smallint", name: "website_id", unsigned: true, nullable: true, identity: false },
  { type: "varchar", name: "email", nullable: true, length: 255 },
  { type: "smallint", name: "group_id", unsigned: true, nullable: false, identity: false, default: "0" },
  { type: "varchar", name: "increment_id", nullable: true, length: 50 },
  { type: "smallint", name: "store_id", unsigned: true, nullable: true, identity: false, default: "0" },
  { type: "timestamp", name: "created_at", on_update: false, nullable: false, default: "CURRENT_TIMESTAMP" },
  { type: "timestamp", name: "updated_at", on_update: true, nullable: false, default: "CURRENT_TIMESTAMP" },
  { type: "smallint", name: "is_active", unsigned: true, nullable: false, identity: false, default: "1" },
  { type: "smallint", name: "disable_auto_group_change", unsigned: true, nullable: false, identity: false, default: "0" },
  { type: "varchar", name: "created_in", nullable: true, length: 255 },
  { type: "varchar", name: "prefix", nullable: true, length: 40 },
  { type: "varchar", name: "firstname", nullable: true, length: 255 },
  { type: "varchar", name: "middlename", nullable: true, length: 255 },
  { type: "varchar", name: "lastname", nullable: true, length: 255 },
  { type: "varchar", name: "suffix", nullable: true, length: 40 },
  { type: "date", name: "dob" },
  { type: "varchar", name: "password_hash", nullable: true, length: 128 },
  { type: "varchar", name: "rp_token", nullable: true, length: 128 },
  { type: "datetime", name: "rp_token_created_at", on_update: false, nullable: true },
  { type: "int", name: "default_billing", unsigned: true, nullable: true, identity: false },
  { type: "int", name: "default_shipping", unsigned: true, nullable: true, identity: false },
  { type: "varchar", name: "taxvat", nullable: true, length: 50 },
  { type: "varchar", name: "confirmation", nullable: true, length: 64 },
  { type: "smallint", name: "gender", unsigned: true, nullable: true, identity: false },
  { type: "smallint", name: "failures_num", unsigned: false, nullable: true, identity: false, default: "0" },
  { type: "timestamp", name: "first_failure", on_update: false, nullable: true },
  { type: "timestamp", name: "lock_expires", on_update: false, nullable: true },
  { type: "timestamp", name: "session_cutoff", on_update: false, nullable: true },
];

/** `<table name="customer_address_entity">` of the same file. */
const CUSTOMER_ADDRESS_ENTITY: XmlColumn[] = [
  { type: "int", name: "entity_id", unsigned: true, nullable: false, identity: true },
  { type: "varchar", name: "increment_id", nullable: true, length: 50 },
  { type: "int", name: "parent_id", unsigned: true, nullable: true, identity: false },
  { type: "timestamp", name: "created_at", on_update: false, nullable: false, default: "CURRENT_TIMESTAMP" },
  { type: "timestamp", name: "updated_at", on_update: true, nullable: false, default: "CURRENT_TIMESTAMP" },
  { type: "smallint", name: "is_active", unsigned: true, nullable: false, identity: false, default: "1" },
  { type: "varchar", name: "city", nullable: false, length: 255 },
  { type: "varchar", name: "company", nullable: true, length: 255 },
  { type: "varchar", name: "country_id", nullable: false, length: 255 },
  { type: "varchar", name: "fax", nullable: true, length: 255 },
  { type: "varchar", name: "firstname", nullable: false, length: 255 },
  { type: "varchar", name: "lastname", nullable: false, length: 255 },
  { type: "varchar", name: "middlename", nullable: true, length: 255 },
  { type: "varchar", name: "postcode", nullable: true, length: 255 },
  { type: "varchar", name: "prefix", nullable: true, length: 40 },
  { type: "varchar", name: "region", nullable: true, length: 255 },
  { type: "int", name: "region_id", unsigned: true, nullable: true, identity: false },
  { type: "text", name: "street", nullable: false },
  { type: "varchar", name: "suffix", nullable: true, length: 40 },
  { type: "varchar", name: "telephone", nullable: false, length: 255 },
  { type: "varchar", name: "vat_id", nullable: true, length: 255 },
  { type: "int", name: "vat_is_valid", unsigned: true, nullable: true, identity: false },
  { type: "varchar", name: "vat_request_date", nullable: true, length: 255 },
  { type: "varchar", name: "vat_request_id", nullable: true, length: 255 },
  { type: "int", name: "vat_request_success", unsigned: true, nullable: true, identity: false },
];

/** A column definition both sides are reduced to. */
interface Definition {
  type: string;
  length: number | null;
  unsigned: boolean;
  nullable: boolean;
  default: string | null;
  identity: boolean;
  onUpdate: boolean;
}

/** What Magento's declarative schema makes of an XML column (its attribute defaults: nullable true, unsigned false). */
function fromXml(c: XmlColumn): Definition {
  return {
    type: c.type,
    length: c.type === "varchar" ? c.length ?? null : null,
    unsigned: c.unsigned === true,
    nullable: c.nullable !== false,
    default: c.default ?? null,
    identity: c.identity === true,
    onUpdate: c.on_update === true,
  };
}

interface InformationSchemaColumn {
  COLUMN_NAME: string;
  DATA_TYPE: string;
  COLUMN_TYPE: string;
  CHARACTER_MAXIMUM_LENGTH: number | null;
  IS_NULLABLE: "YES" | "NO";
  COLUMN_DEFAULT: string | null;
  EXTRA: string;
}

/**
 * A live column as a definition. MariaDB and MySQL spell defaults differently (`'NULL'` vs null,
 * `current_timestamp()` vs `CURRENT_TIMESTAMP`, quoted vs bare strings): one spelling here.
 */
function fromInformationSchema(c: InformationSchemaColumn): Definition {
  let dflt = c.COLUMN_DEFAULT;
  if (dflt === "NULL") dflt = null;
  if (dflt !== null && /^current_timestamp(\(\))?$/i.test(dflt)) dflt = "CURRENT_TIMESTAMP";
  if (dflt !== null) dflt = dflt.replace(/^'(.*)'$/, "$1");
  return {
    type: c.DATA_TYPE.toLowerCase(),
    length: c.DATA_TYPE.toLowerCase() === "varchar" ? Number(c.CHARACTER_MAXIMUM_LENGTH) : null,
    unsigned: /\bunsigned\b/i.test(c.COLUMN_TYPE),
    nullable: c.IS_NULLABLE === "YES",
    default: dflt,
    identity: /auto_increment/i.test(c.EXTRA),
    onUpdate: /on update current_timestamp/i.test(c.EXTRA),
  };
}

let dbName = "";
let database: ConnectorDatabase;

beforeAll(async () => {
  dbName = throwawayDatabaseName("magento_schema");
  await migrateConnectorDatabase(TEST_DATABASE_URL, dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
});

afterAll(async () => {
  await database?.close();
  await dropDatabase(dbName);
});

async function liveColumns(table: string): Promise<Record<string, Definition>> {
  const [rows] = await database.pool.query(
    `SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_MAXIMUM_LENGTH, IS_NULLABLE, COLUMN_DEFAULT, EXTRA
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`,
    [dbName, table],
  );
  return Object.fromEntries((rows as InformationSchemaColumn[]).map((c) => [c.COLUMN_NAME, fromInformationSchema(c)]));
}

describe("Magento's customer tables, column for column", () => {
  for (const [table, xml] of [["customer_entity", CUSTOMER_ENTITY], ["customer_address_entity", CUSTOMER_ADDRESS_ENTITY]] as const) {
    it(`${table} has exactly db_schema.xml's columns and definitions`, async () => {
      const live = await liveColumns(table);
      expect(Object.keys(live).sort()).toEqual(xml.map((c) => c.name).sort());
      expect(live).toEqual(Object.fromEntries(xml.map((c) => [c.name, fromXml(c)])));
    });
  }

  it("refuses an address row without a telephone, as Magento does", async () => {
    await expect(database.pool.query(
      "INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, street, telephone) VALUES (1, 'Utrecht', 'NL', 'Ann', 'Lee', 'Oudegracht', NULL)",
    )).rejects.toMatchObject({ code: "ER_BAD_NULL_ERROR" });
    await expect(database.pool.query(
      "INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, street) VALUES (1, 'Utrecht', 'NL', 'Ann', 'Lee', 'Oudegracht')",
    )).rejects.toMatchObject({ code: expect.stringMatching(/^ER_NO_DEFAULT_FOR_FIELD$/) });
    const [rows] = await database.pool.query("SELECT COUNT(*) AS n FROM customer_address_entity");
    expect((rows as Array<{ n: number }>)[0]!.n).toBe(0);
  });

  it("stamps created_at on insert and moves updated_at with every change of the row (timestamps, not datetimes)", async () => {
    await database.pool.query("INSERT INTO customer_entity (website_id, email, firstname, created_at, updated_at) VALUES (1, 'ts@example.com', 'Ts', '2020-01-01 00:00:00', '2020-01-01 00:00:00')");
    await database.pool.query("UPDATE customer_entity SET firstname = 'Tess' WHERE email = 'ts@example.com'");
    const [rows] = await database.pool.query("SELECT created_at, updated_at FROM customer_entity WHERE email = 'ts@example.com'");
    const [row] = rows as Array<{ created_at: Date; updated_at: Date }>;
    expect(row!.created_at.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(row!.updated_at.getTime()).toBeGreaterThan(new Date("2025-01-01T00:00:00Z").getTime());
  });

  it("upgrades a store written before the change: NULL address values become \"\", datetimes keep their UTC value", async () => {
    // The migrations up to the one that made the tables Magento's, in a folder of their own.
    const folder = mkdtempSync(path.join(tmpdir(), "connector-migrations-"));
    const name = throwawayDatabaseName("magento_upgrade");
    const old = openConnectorDatabase(TEST_DATABASE_URL, name);
    try {
      cpSync(CONNECTOR_MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
      const before = journal.entries.findIndex((e) => e.tag.includes("magento_columns"));
      expect(before).toBeGreaterThan(0);
      writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }));
      await ensureDatabase(TEST_DATABASE_URL, name);
      await migrate(old.db, { migrationsFolder: folder });
      await old.pool.query("INSERT INTO customer_entity (entity_id, website_id, email, created_at, updated_at) VALUES (5, 1, 'old@example.com', '2024-02-03 04:05:06', '2024-02-03 04:05:06')");
      await old.pool.query("INSERT INTO customer_address_entity (parent_id, created_at, updated_at, street) VALUES (5, '2024-02-03 04:05:06', '2024-02-03 04:05:06', 'Main')");
      await old.close();

      await migrateConnectorDatabase(TEST_DATABASE_URL, name);
      const upgraded = openConnectorDatabase(TEST_DATABASE_URL, name);
      try {
        const [addresses] = await upgraded.pool.query("SELECT city, country_id, firstname, lastname, street, telephone, created_at FROM customer_address_entity");
        expect(addresses).toEqual([{ city: "", country_id: "", firstname: "", lastname: "", street: "Main", telephone: "", created_at: new Date("2024-02-03T04:05:06Z") }]);
        const [customers] = await upgraded.pool.query("SELECT created_at, updated_at FROM customer_entity");
        expect(customers).toEqual([{ created_at: new Date("2024-02-03T04:05:06Z"), updated_at: new Date("2024-02-03T04:05:06Z") }]);
      } finally {
        await upgraded.close();
      }
    } finally {
      await old.close().catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
      await dropDatabase(name);
    }
  });
});
