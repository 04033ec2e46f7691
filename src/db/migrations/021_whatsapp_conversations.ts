import type { Kysely, Migration } from 'kysely';

/**
 * The WhatsApp conversation's own memory (src/whatsapp/conversation): per number and flow (a
 * participant's signature or a face validation), where the conversation stands beyond what the
 * flow's rows already say; per number, the flow chosen among several and the day a number with
 * nothing open was last answered. Participants and face validations are found by phone.
 */
export const whatsappConversations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chat_flows')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('phone', 'varchar(20)', (c) => c.notNull())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('participant_row_id', 'varchar(24)', (c) => c.unique().references('participants.id'))
      .addColumn('veriface_id', 'varchar(24)', (c) => c.unique().references('veriface_processes.id'))
      .addColumn('step', 'varchar(16)', (c) => c.notNull())
      .addColumn('retake', 'varchar(16)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('chat_flows_phone').on('chat_flows').columns(['phone', 'updated_at']).execute();
    await db.schema
      .createTable('chat_numbers')
      .addColumn('phone', 'varchar(20)', (c) => c.primaryKey())
      .addColumn('current_flow_id', 'varchar(32)')
      .addColumn('answered_on', 'varchar(10)')
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('participants_phone').on('participants').columns(['phone']).execute();
    await db.schema.createIndex('veriface_processes_phone').on('veriface_processes').columns(['phone', 'status']).execute();
  },
};
