CREATE TABLE "access_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url_friendly_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"customer" text DEFAULT '' NOT NULL,
	"creator" text NOT NULL,
	"creation_time" timestamp with time zone DEFAULT now() NOT NULL,
	"expiration_time" timestamp with time zone,
	"class_id" integer NOT NULL,
	"parent_id" integer,
	"managed" boolean DEFAULT true NOT NULL,
	"auto_test" boolean DEFAULT false NOT NULL,
	"auto_test_branch" text,
	"white_glove" boolean DEFAULT false NOT NULL,
	"maintainer" text NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"contact_phone1" text,
	"contact_phone2" text,
	"billing_period" text DEFAULT 'Biweekly' NOT NULL,
	"billing_amount" double precision DEFAULT 10 NOT NULL,
	"instance_policy" text DEFAULT 'AllInOne' NOT NULL,
	"bundle_version" text,
	"vm_image_name" text,
	"is_template" boolean DEFAULT false NOT NULL,
	"license_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"machine_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"backup_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idle_schedules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"properties_version" integer DEFAULT 1 NOT NULL,
	"license_version" integer DEFAULT 1 NOT NULL,
	"instance_version" integer DEFAULT 1 NOT NULL,
	"backup_version" integer DEFAULT 1 NOT NULL,
	"idle_version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce("name", '')), 'A') || setweight(to_tsvector('simple', coalesce("url_friendly_name", '')), 'A') || setweight(to_tsvector('simple', coalesce("customer", '')), 'B') || setweight(to_tsvector('simple', coalesce("creator", '')), 'B')) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"user_name" text NOT NULL,
	"time" timestamp with time zone DEFAULT now() NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_activity_accounts" (
	"activity_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"account_name" text NOT NULL,
	"class_id" integer NOT NULL,
	CONSTRAINT "audit_activity_accounts_activity_id_account_id_pk" PRIMARY KEY("activity_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "cloud_instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer,
	"cloud_id" text NOT NULL,
	"status" text NOT NULL,
	"region" text NOT NULL,
	"instance_type_id" integer,
	"host_name" text NOT NULL,
	"ip_address" text NOT NULL,
	"private_ip_address" text NOT NULL,
	"storage_size" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"dns_ready" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cloud_instances_cloud_id_unique" UNIQUE("cloud_id")
);
--> statement-breakpoint
CREATE TABLE "component_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"root_key" text NOT NULL,
	"sub_key" text NOT NULL,
	"data_type" text,
	"protected" boolean DEFAULT false NOT NULL,
	"site_specific" boolean DEFAULT false NOT NULL,
	"version_id" integer,
	"deprecated_at_version_id" integer,
	"saas_default_value" text,
	"on_prem_default_value" text,
	"linux_specific_value" text
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "customers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "deployer_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"root_key" text NOT NULL,
	"sub_key" text NOT NULL,
	"data_type" text,
	"protected" boolean DEFAULT false NOT NULL,
	"version_id" integer,
	"deprecated_at_version_id" integer,
	"default_value" text
);
--> statement-breakpoint
CREATE TABLE "features" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "features_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "instance_types" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cloud_code" text NOT NULL,
	"storage_size" integer NOT NULL,
	"memory_size" double precision,
	"cloud_credit_cost" double precision NOT NULL,
	"is_redis" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "irmn_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "irmn_versions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "launcher_logins" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"user_name" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"password_enc" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"package" text NOT NULL,
	"type" text NOT NULL,
	"version" text NOT NULL,
	"in_s3" boolean DEFAULT true NOT NULL,
	"added_by" text NOT NULL,
	"date" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"address" text NOT NULL,
	"success" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'New' NOT NULL,
	"description" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"site_id" integer,
	"name" text NOT NULL,
	"class_id" integer NOT NULL,
	"is_launcher" boolean DEFAULT false NOT NULL,
	"is_site_master" boolean DEFAULT false NOT NULL,
	"needs_admin" boolean DEFAULT false NOT NULL,
	"fail_counter" integer DEFAULT 0 NOT NULL,
	"operation_mode" integer DEFAULT 1 NOT NULL,
	"managed" boolean DEFAULT true NOT NULL,
	"manual_maintenance" boolean DEFAULT false NOT NULL,
	"turbo" boolean DEFAULT false NOT NULL,
	"run_smoke_test" boolean DEFAULT false NOT NULL,
	"oversee_termination" boolean DEFAULT false NOT NULL,
	"stop" boolean DEFAULT false NOT NULL,
	"idle" boolean DEFAULT false NOT NULL,
	"terminate" boolean DEFAULT false NOT NULL,
	"instance_type_id" integer,
	"bundle_version" text,
	"current_versions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"desired_versions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"obsolete" boolean GENERATED ALWAYS AS (current_versions is distinct from desired_versions) STORED NOT NULL,
	"sample_data" text DEFAULT 'None' NOT NULL,
	"sample_data_file" text,
	"component_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deployer_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mma_classes" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image" text,
	"is_production" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mma_instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"commit_hash" text NOT NULL,
	"commit_timestamp" timestamp with time zone NOT NULL,
	"deployer_ver" text NOT NULL,
	"deployer_branch" text DEFAULT 'master' NOT NULL,
	"deployer_ver_updated_at" timestamp with time zone,
	"standby" boolean DEFAULT false NOT NULL,
	"priority_group" integer DEFAULT 0 NOT NULL,
	"caa_host" text,
	CONSTRAINT "mma_instances_class_id_unique" UNIQUE("class_id")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cloud_code" text NOT NULL,
	CONSTRAINT "regions_cloud_code_unique" UNIQUE("cloud_code")
);
--> statement-breakpoint
CREATE TABLE "reporting_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "reporting_categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "saas_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"irmn_version_id" integer,
	"official" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"jump_start" boolean DEFAULT false NOT NULL,
	"jump_start_config" jsonb,
	"os_type" text DEFAULT 'Windows' NOT NULL,
	"cloud_image" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"url_friendly_name" text NOT NULL,
	"domain_name" text NOT NULL,
	"port" integer DEFAULT 8080 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"repo" text NOT NULL,
	"repo_missing" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_builds" (
	"id" serial PRIMARY KEY NOT NULL,
	"software" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"last_modified" timestamp with time zone NOT NULL,
	"size" integer NOT NULL,
	"hash" text NOT NULL,
	"type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_commits" (
	"id" serial PRIMARY KEY NOT NULL,
	"software" text NOT NULL,
	"branch_id" integer NOT NULL,
	"short_hash" text NOT NULL,
	"full_hash" text NOT NULL,
	"author" text NOT NULL,
	"is_breaking" boolean DEFAULT false NOT NULL,
	"breaking_msg" text,
	"timestamp" timestamp with time zone NOT NULL,
	"message" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"builds" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"owner_id" integer,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"permissions" text[] DEFAULT '{}' NOT NULL,
	"groups" text[] DEFAULT '{}' NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_activity_accounts" ADD CONSTRAINT "audit_activity_accounts_activity_id_audit_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."audit_activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD CONSTRAINT "cloud_instances_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_instances" ADD CONSTRAINT "cloud_instances_instance_type_id_instance_types_id_fk" FOREIGN KEY ("instance_type_id") REFERENCES "public"."instance_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_configs" ADD CONSTRAINT "component_configs_version_id_irmn_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."irmn_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_configs" ADD CONSTRAINT "component_configs_deprecated_at_version_id_irmn_versions_id_fk" FOREIGN KEY ("deprecated_at_version_id") REFERENCES "public"."irmn_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployer_configs" ADD CONSTRAINT "deployer_configs_version_id_irmn_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."irmn_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployer_configs" ADD CONSTRAINT "deployer_configs_deprecated_at_version_id_irmn_versions_id_fk" FOREIGN KEY ("deprecated_at_version_id") REFERENCES "public"."irmn_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launcher_logins" ADD CONSTRAINT "launcher_logins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD CONSTRAINT "machine_tasks_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_tasks" ADD CONSTRAINT "machine_tasks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_instance_type_id_instance_types_id_fk" FOREIGN KEY ("instance_type_id") REFERENCES "public"."instance_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mma_instances" ADD CONSTRAINT "mma_instances_class_id_mma_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."mma_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saas_images" ADD CONSTRAINT "saas_images_irmn_version_id_irmn_versions_id_fk" FOREIGN KEY ("irmn_version_id") REFERENCES "public"."irmn_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_commits" ADD CONSTRAINT "software_commits_branch_id_software_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."software_branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_url_name_live_idx" ON "accounts" USING btree ("url_friendly_name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "accounts_search_idx" ON "accounts" USING gin ("search");--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree ("name");--> statement-breakpoint
CREATE INDEX "accounts_class_idx" ON "accounts" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "audit_activities_time_idx" ON "audit_activities" USING btree ("time");--> statement-breakpoint
CREATE INDEX "audit_activities_action_idx" ON "audit_activities" USING btree ("action","time");--> statement-breakpoint
CREATE INDEX "audit_accounts_account_idx" ON "audit_activity_accounts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "cloud_instances_machine_idx" ON "cloud_instances" USING btree ("machine_id");--> statement-breakpoint
CREATE INDEX "launcher_logins_account_idx" ON "launcher_logins" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "login_attempts_pair_idx" ON "login_attempts" USING btree ("username","address","at");--> statement-breakpoint
CREATE INDEX "machine_tasks_machine_idx" ON "machine_tasks" USING btree ("machine_id","id");--> statement-breakpoint
CREATE INDEX "machine_tasks_status_idx" ON "machine_tasks" USING btree ("status");--> statement-breakpoint
CREATE INDEX "machines_account_idx" ON "machines" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "machines_class_idx" ON "machines" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "sites_account_idx" ON "sites" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "software_commits_software_idx" ON "software_commits" USING btree ("software","timestamp");