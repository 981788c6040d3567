from django.db import migrations, models


def forget_stored_copies(apps, schema_editor):
    # A stored row now holds the data page and downloads too; rows from before hold none of them.
    # They are a cache of renderings: the next `prerender_due` run stores complete ones (articles
    # render in the request meanwhile).
    apps.get_model("articles", "PrerenderedArticle").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('articles', '0011_prerendered_article'),
    ]

    operations = [
        migrations.RunPython(forget_stored_copies, migrations.RunPython.noop),
        migrations.AddField(
            model_name='prerenderedarticle',
            name='block_csvs',
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='prerenderedarticle',
            name='data_html',
            field=models.TextField(default=''),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='prerenderedarticle',
            name='figures_csv',
            field=models.TextField(default=''),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='prerenderedarticle',
            name='figures_json',
            field=models.TextField(default=''),
            preserve_default=False,
        ),
    ]
