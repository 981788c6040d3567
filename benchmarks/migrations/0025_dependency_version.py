from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("benchmarks", "0024_source_licence_url"),
    ]

    operations = [
        migrations.CreateModel(
            name="DependencyVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=64, unique=True)),
                ("version", models.BigIntegerField()),
            ],
            options={"verbose_name": "dependency version"},
        ),
    ]
